package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.phalanx.controller.Controller;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.testkit.db.SqliteFiles;
import org.phalanx.testkit.db.TestDatabases;
import org.phalanx.testkit.jdbc.Fault;
import org.phalanx.testkit.jdbc.FaultyDriver;

/**
 * A controller started in-process from real XML files, serving virtual database "vdb" (user
 * "app", password "secret") over replicas of one engine: SQLite files, or PostgreSQL or MariaDB
 * databases created for the test and dropped afterwards. RAIDb-1, wait policy 'first'; the last
 * replica goes through the fault injector, so a test can make it the slow one ({@link #slow}).
 */
final class EngineCluster implements AutoCloseable {
    enum Kind { SQLITE, POSTGRESQL, MARIADB }

    final Kind kind;
    final Path dir;
    private final String database;
    private final List<String> names = new ArrayList<>();
    private final List<String> urls = new ArrayList<>();
    private Controller controller;

    /**
     * @param database base name of the PostgreSQL or MariaDB databases (suffixed 1..n), unique per test class
     * @param requestManager extra attributes of {@code <requestManager>}, e.g. {@code defaultIsolation="SERIALIZABLE"}
     */
    EngineCluster(Path dir, Kind kind, int replicas, String database, String requestManager) throws Exception {
        this(dir, kind, replicas, database, requestManager, "", "");
    }

    /**
     * @param afterBackends elements after {@code <backends>}, e.g. {@code <rewriting>}
     * @param afterRequestManager elements after {@code <requestManager>}, e.g. {@code <recoveryLog dir="log"/>}
     */
    EngineCluster(Path dir, Kind kind, int replicas, String database, String requestManager, String afterBackends,
                  String afterRequestManager) throws Exception {
        this.dir = dir;
        this.kind = kind;
        this.database = database;
        SqliteFiles files = new SqliteFiles(dir, names(replicas).toArray(new String[0]));
        try {
            for (int i = 1; i <= replicas; i++) {
                names.add("b" + i);
                urls.add(switch (kind) {
                    case SQLITE -> files.url("b" + i);
                    case POSTGRESQL -> TestDatabases.createPostgres(database + i);
                    case MARIADB -> TestDatabases.createMariaDb(database + i);
                });
            }
            slow().reset();
            writeConfig(requestManager, afterBackends, afterRequestManager);
            controller = Controller.fromConfig(dir.resolve("controller.xml"));
            controller.start();
        } catch (Exception | Error e) {
            dropDatabases();
            throw e;
        }
    }

    private static List<String> names(int replicas) {
        List<String> n = new ArrayList<>();
        for (int i = 1; i <= replicas; i++) {
            n.add("b" + i);
        }
        return n;
    }

    private String faultName() {
        return database + "-slow";
    }

    private void writeConfig(String requestManager, String afterBackends, String afterRequestManager) throws Exception {
        String login = switch (kind) {
            case SQLITE -> "";
            case POSTGRESQL -> " user=\"postgres\" password=\"\"";
            case MARIADB -> " user=\"root\" password=\"\"";
        };
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            boolean last = i == names.size() - 1;
            String url = last ? FaultyDriver.url(faultName(), urls.get(i)) : urls.get(i);
            b.append("    <backend name=\"").append(names.get(i)).append("\" url=\"").append(url).append('"')
                    .append(last ? " driver=\"" + FaultyDriver.class.getName() + "\"" : "")
                    .append(login).append(" poolSize=\"40\"/>\n");
        }
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users>
                    <user name="app" password="secret"/>
                  </users>
                  <backends>
                %s  </backends>
                  %s
                  <requestManager replication="RAIDb-1" waitPolicy="first" balancing="least-pending" lockTimeout="20s" %s/>
                  %s
                </virtualDatabase>
                """.formatted(b, afterBackends, requestManager, afterRequestManager));
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="0"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """);
    }

    /** The fault knobs of the last replica (e.g. {@code slow().delayMillis = 2}). */
    Fault slow() {
        return FaultyDriver.fault(faultName());
    }

    List<String> backends() {
        return names;
    }

    VirtualDatabase vdb() {
        return controller.virtualDatabase("vdb");
    }

    Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "app");
        p.setProperty("password", "secret");
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + controller.port() + "/vdb", p);
    }

    /** The virtual database as a DataSource, as tools like Flyway take it. */
    org.phalanx.driver.PhalanxDataSource dataSource() {
        org.phalanx.driver.PhalanxDataSource ds = new org.phalanx.driver.PhalanxDataSource();
        ds.setUrl("jdbc:phalanx://127.0.0.1:" + controller.port() + "/vdb");
        ds.setUser("app");
        ds.setPassword("secret");
        return ds;
    }

    /** A connection straight to one replica, bypassing Phalanx. */
    Connection direct(String backend) throws SQLException {
        return TestDatabases.connect(urls.get(names.indexOf(backend)));
    }

    /** Every replica still enabled. */
    void assertAllEnabled() {
        Map<String, BackendState> states = vdb().backendStates();
        for (String n : names) {
            assertEquals(BackendState.ENABLED, states.get(n), "state of " + n + ": " + states);
        }
    }

    /**
     * Every replica holds the same rows of {@code table} (an ordered checksum of each, read
     * directly); returns the row count. Call once the writes are applied everywhere (after
     * {@link #stopController}).
     */
    long assertIdentical(String table, String orderBy) throws SQLException {
        String expected = checksum(names.get(0), table, orderBy);
        for (String n : names.subList(1, names.size())) {
            assertEquals(expected, checksum(n, table, orderBy), "table " + table + " differs between b1 and " + n);
        }
        return Long.parseLong(expected.substring(0, expected.indexOf(':')));
    }

    private String checksum(String backend, String table, String orderBy) throws SQLException {
        try (Connection c = direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY " + orderBy)) {
            return SqliteFiles.checksum(rs);
        }
    }

    /** Stops the controller, which first lets every replica apply every write queued: then replicas can be compared. */
    void stopController() {
        if (controller != null) {
            controller.stop();
            controller = null;
        }
    }

    private void dropDatabases() {
        for (int i = 1; i <= names.size(); i++) {
            if (kind == Kind.POSTGRESQL) {
                TestDatabases.dropPostgres(database + i);
            } else if (kind == Kind.MARIADB) {
                TestDatabases.dropMariaDb(database + i);
            }
        }
    }

    @Override
    public void close() {
        try {
            slow().reset();
            stopController();
        } finally {
            dropDatabases();
        }
    }
}
