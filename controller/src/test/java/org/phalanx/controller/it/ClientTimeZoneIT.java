package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.db.TestDatabases;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * A client whose JVM runs in another time zone than the controller's gets from PostgreSQL
 * backends what pgjdbc gives it from one database: pgjdbc starts each session in its JVM's zone,
 * so a {@code timestamptz} written as a wall-clock time (a {@code Timestamp} parameter, a literal)
 * is that time in the client's zone, and one read back is shown in it. Through Phalanx the stored
 * instant was off by the zones' difference, for every other reader too. The controller runs as a
 * process in UTC; the client here in Asia/Kolkata (+05:30), beside pgjdbc on a database of its own.
 */
class ClientTimeZoneIT {
    private static final String CLIENT_ZONE = "Asia/Kolkata";
    private static final String QUERY = "SELECT id, at, wall, at::text, extract(hour from at)::int,"
            + " at::timestamp::text FROM ev ORDER BY id";
    @TempDir
    Path dir;
    private final List<String> databases = new ArrayList<>();
    private ControllerProcess controller;
    private final TimeZone jvmZone = TimeZone.getDefault();

    @AfterEach
    void stop() throws Exception {
        TimeZone.setDefault(jvmZone);
        if (controller != null) {
            controller.close();
        }
        databases.forEach(TestDatabases::dropPostgres);
    }

    @Test
    void timestampsWithTimeZoneAreTheClientsAsOnOneDatabase() throws Exception {
        List<String> urls = new ArrayList<>();
        for (String db : List.of("phalanx_tz1", "phalanx_tz2", "phalanx_tz_direct")) {
            databases.add(db);
            urls.add(TestDatabases.createPostgres(db));
        }
        int port = Ports.free();
        startController(port, urls.subList(0, 2));

        TimeZone.setDefault(TimeZone.getTimeZone(CLIENT_ZONE)); // the client's JVM, and pgjdbc's beside it
        List<List<Object>> viaPhalanx;
        List<List<Object>> direct;
        try (Connection c = phalanx(port)) {
            viaPhalanx = writeAndRead(c);
        }
        try (Connection c = TestDatabases.connect(urls.get(2))) {
            direct = writeAndRead(c);
        }
        assertEquals(direct, viaPhalanx);

        // the instants stored on each replica are the client's wall-clock times in its zone
        Instant tenInKolkata = Instant.parse("2026-06-01T04:30:00Z");
        for (String url : urls) {
            try (Connection c = TestDatabases.connect(url); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT at FROM ev ORDER BY id")) {
                while (rs.next()) {
                    assertEquals(tenInKolkata, rs.getTimestamp(1).toInstant(), url);
                }
            }
        }

        // PostgreSQL's infinity stays pgjdbc's far date
        try (Connection throughPhalanx = phalanx(port); Connection straight = TestDatabases.connect(urls.get(2))) {
            String sql = "SELECT 'infinity'::timestamptz, '-infinity'::timestamptz";
            assertEquals(firstRowTimestamps(straight, sql), firstRowTimestamps(throughPhalanx, sql));
        }

        // a RESET goes back to the client's zone, as on PostgreSQL (to the zone pgjdbc started the session with)
        try (Connection c = phalanx(port); Statement s = c.createStatement()) {
            s.execute("SET TIME ZONE 'UTC'");
            assertEquals("04", hourOfFirst(s));
            s.execute("RESET TIME ZONE");
            assertEquals("10", hourOfFirst(s));
        }
    }

    private static List<Timestamp> firstRowTimestamps(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return List.of(rs.getTimestamp(1), rs.getTimestamp(2));
        }
    }

    private static String hourOfFirst(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT to_char(at, 'HH24') FROM ev WHERE id = 1")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The same statements through either driver: a Timestamp parameter, a literal, a setObject of a LocalDateTime. */
    private static List<List<Object>> writeAndRead(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE ev (id INTEGER PRIMARY KEY, at TIMESTAMPTZ, wall TIMESTAMP)");
            s.executeUpdate("INSERT INTO ev VALUES (2, '2026-06-01 10:00:00', '2026-06-01 10:00:00')");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ev VALUES (?, ?, ?)")) {
            Timestamp ten = Timestamp.valueOf("2026-06-01 10:00:00");
            ps.setInt(1, 1);
            ps.setTimestamp(2, ten);
            ps.setTimestamp(3, ten);
            ps.executeUpdate();
            ps.setInt(1, 3);
            ps.setObject(2, ten.toLocalDateTime());
            ps.setObject(3, ten.toLocalDateTime());
            ps.executeUpdate();
        }
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(QUERY)) {
            while (rs.next()) {
                rows.add(List.of(rs.getInt(1), rs.getTimestamp(2).toInstant(), rs.getString(2),
                        rs.getObject(2).toString(), rs.getTimestamp(3), rs.getString(4), rs.getInt(5), rs.getString(6)));
            }
        }
        return rows;
    }

    private static Connection phalanx(int port) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "app");
        p.setProperty("password", "secret");
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + port + "/vdb", p);
    }

    private void startController(int port, List<String> urls) throws Exception {
        StringBuilder backends = new StringBuilder();
        for (int i = 0; i < urls.size(); i++) {
            backends.append("    <backend name=\"b").append(i + 1).append("\" url=\"").append(urls.get(i))
                    .append("\" user=\"postgres\" password=\"\"/>\n");
        }
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends>
                %s  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="all"/>
                </virtualDatabase>
                """.formatted(backends));
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port));
        controller = ControllerProcess.launcher(dir.resolve("controller.xml")).systemProperty("user.timezone", "UTC")
                .output(dir.resolve("controller.out")).awaitPorts(port).awaitStarted().start();
    }
}
