package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.ControllerMain;
import org.phalanx.testkit.db.TestDatabases;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * A large result streams through the controller in batches from PostgreSQL and MariaDB, whether
 * or not its client asked for a fetch size: 400,000 rows (about 90 MB) read through a controller
 * process whose heap is 64 MB, in auto-commit (where pgjdbc would otherwise load every row at
 * once) and in a transaction.
 */
class BoundedStreamingIT {
    private static final String DB = "phalanx_streaming";
    private static final int ROWS = 400_000;

    @TempDir
    Path dir;

    @AfterEach
    void drop() {
        TestDatabases.dropPostgres(DB);
        TestDatabases.dropMariaDb(DB);
    }

    @Test
    void aPostgresqlResultStreamsThroughASmallHeap() throws Exception {
        String url = TestDatabases.createPostgres(DB);
        fill(url, "SELECT g, repeat('x', 200) FROM generate_series(1, " + ROWS + ") g");
        readThroughASmallHeap(url);
    }

    @Test
    void aMariadbResultStreamsThroughASmallHeap() throws Exception {
        String url = TestDatabases.createMariaDb(DB);
        fill(url, "SELECT seq, REPEAT('x', 200) FROM seq_1_to_" + ROWS);
        readThroughASmallHeap(url);
    }

    private static void fill(String url, String rows) throws Exception {
        try (Connection direct = TestDatabases.connect(url); Statement s = direct.createStatement()) {
            s.executeUpdate("CREATE TABLE big (id INTEGER PRIMARY KEY, filler VARCHAR(200) NOT NULL)");
            s.executeUpdate("INSERT INTO big " + rows);
        }
    }

    private void readThroughASmallHeap(String url) throws Exception {
        int port = Ports.free();
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends><backend name="db" url="%s" user="%s"/></backends>
                </virtualDatabase>
                """.formatted(url, url.startsWith("jdbc:postgresql") ? "postgres" : "root"));
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port));
        try (ControllerProcess controller = ControllerProcess.java(ControllerMain.class.getName(), dir.resolve("controller.xml"))
                .jvmOptions("-Xmx64m").output(dir.resolve("controller.out")).awaitPorts(port).start();
             Connection c = DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + port + "/vdb?user=app&password=secret");
             Statement s = c.createStatement()) {
            s.setFetchSize(1000);
            readAll(s);
            s.setFetchSize(0); // the driver's default: the controller bounds what it holds all the same
            readAll(s);
            readAll(s); // the second time, the controller knows the result is large
            c.setAutoCommit(false);
            readAll(s);
            c.commit();
            c.setAutoCommit(true);
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM big")) { // still serving
                rs.next();
                assertEquals(ROWS, rs.getInt(1));
            }
        }
    }

    private static void readAll(Statement s) throws Exception {
        long rows = 0;
        long sum = 0;
        try (ResultSet rs = s.executeQuery("SELECT id, filler FROM big ORDER BY id")) {
            while (rs.next()) {
                rows++;
                sum += rs.getInt(1);
            }
        }
        assertEquals(ROWS, rows);
        assertEquals((long) ROWS * (ROWS + 1) / 2, sum);
    }
}
