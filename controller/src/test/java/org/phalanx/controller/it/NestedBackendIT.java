package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.Controller;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.testkit.db.SqliteFiles;

/**
 * A virtual database as the backend of another controller, in this JVM: what the request
 * manager needs of a backend, through the Phalanx driver, and a tree three levels deep.
 */
class NestedBackendIT {
    @TempDir
    Path dir;
    private final List<Controller> started = new ArrayList<>();

    @AfterEach
    void stop() {
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).stop(); // the top first
        }
    }

    /** Starts a controller hosting virtual database {@code name} (user app/secret) in folder {@code name}. */
    private Controller start(String name, String backends, String requestManager) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        Files.writeString(d.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="%s">
                  <users><user name="app" password="secret"/></users>
                  <backends>%s</backends>
                  %s
                </virtualDatabase>
                """.formatted(name, backends, requestManager));
        Files.writeString(d.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="0"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """);
        Controller c = Controller.fromConfig(d.resolve("controller.xml"));
        c.start();
        started.add(c);
        return c;
    }

    private static String sqlite(String... leaves) {
        StringBuilder b = new StringBuilder();
        for (String leaf : leaves) {
            b.append("<backend name=\"").append(leaf).append("\" url=\"jdbc:sqlite:").append(leaf).append(".db\"/>");
        }
        return b.toString();
    }

    private static String controllerBackend(String name, Controller c, String vdb) {
        return "<backend name=\"" + name + "\" url=\"jdbc:phalanx://127.0.0.1:" + c.port() + "/" + vdb
                + "\" user=\"app\" password=\"secret\"/>";
    }

    private static Connection connect(Controller c, String vdb) throws SQLException {
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + c.port() + "/" + vdb + "?user=app&password=secret");
    }

    @Test
    void everythingTheRequestManagerNeedsOfABackendWorksThroughTheDriver() throws Exception {
        Controller sub1 = start("sub1", sqlite("l1", "l2"), "<requestManager replication=\"RAIDb-1\"/>");
        Controller sub2 = start("sub2", sqlite("l3", "l4"), "<requestManager replication=\"RAIDb-1\"/>");
        String backends = controllerBackend("sub1", sub1, "sub1") + controllerBackend("sub2", sub2, "sub2");
        String placement = """
                <requestManager replication="RAIDb-2">
                    <createTable pattern="only_one" policy="backends" backends="sub1"/>
                    <createTable policy="all"/>
                  </requestManager>""";
        Controller top = start("top", backends, placement);
        try (Connection c = connect(top, "top"); Statement s = c.createStatement()) {
            assertEquals("SQLite", c.getMetaData().getDatabaseProductName(), "the top speaks its leaves' SQL");
            s.executeUpdate("CREATE TABLE items (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, qty INTEGER)");
            s.executeUpdate("CREATE TABLE only_one (id INTEGER PRIMARY KEY, v TEXT)");

            // generated keys come back through both levels
            assertEquals(1, s.executeUpdate("INSERT INTO items (name, qty) VALUES ('a', 1)", Statement.RETURN_GENERATED_KEYS));
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertTrue(keys.next());
                assertEquals(1, keys.getLong(1));
            }
            // batches
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (name, qty) VALUES (?, ?)")) {
                for (int i = 0; i < 2999; i++) {
                    ps.setString(1, "item " + i);
                    ps.setInt(2, i);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                assertEquals(2999, counts.length);
                assertTrue(java.util.Arrays.stream(counts).allMatch(n -> n == 1));
            }
            // transactions: read your writes inside, nothing left after a rollback
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO only_one VALUES (1, 'kept')");
            try (ResultSet rs = s.executeQuery("SELECT v FROM only_one WHERE id = 1")) {
                assertTrue(rs.next());
            }
            c.commit();
            s.executeUpdate("INSERT INTO only_one VALUES (2, 'rolled back')");
            c.rollback();
            c.setAutoCommit(true);
            // streaming: a result larger than the fetch size arrives batch by batch through both levels
            s.setFetchSize(100);
            long rows = 0;
            long sum = 0;
            try (ResultSet rs = s.executeQuery("SELECT id, qty FROM items ORDER BY id")) {
                while (rs.next()) {
                    rows++;
                    sum += rs.getLong(1);
                }
            }
            assertEquals(3000, rows);
            assertEquals(3000L * 3001 / 2, sum);
            // schema discovery through DatabaseMetaData
            Set<String> tables = new TreeSet<>();
            try (ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            assertTrue(tables.containsAll(Set.of("items", "only_one")), tables.toString());
        }

        // errors keep their SQLState, vendor code and message through a level
        SQLException viaTop = duplicateKey(top, "top");
        SQLException viaSub = duplicateKey(sub1, "sub1");
        assertEquals(viaSub.getSQLState(), viaTop.getSQLState());
        assertEquals(viaSub.getErrorCode(), viaTop.getErrorCode());
        assertEquals(viaSub.getMessage(), viaTop.getMessage());
        assertEquals(viaSub.getClass(), viaTop.getClass());
        assertEquals(Set.of(BackendState.ENABLED), Set.copyOf(top.backendStates("top").values()), "an error everywhere disables nobody");

        // a restarted top learns where the tables are from the sub-controllers' metadata
        top.stop();
        started.remove(top);
        Controller again = start("top", backends, placement);
        try (Connection c = connect(again, "top"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM only_one JOIN items ON items.id = only_one.id")) {
            assertTrue(rs.next(), "a join routed to sub1, which alone holds only_one");
            assertEquals(1, rs.getInt(1));
        }
        assertEquals(Set.of("items", "only_one"), tables(dir.resolve("sub1"), "l1"));
        assertEquals(Set.of("items"), tables(dir.resolve("sub2"), "l3"));
    }

    private static SQLException duplicateKey(Controller c, String vdb) throws SQLException {
        try (Connection conn = connect(c, vdb); Statement s = conn.createStatement()) {
            return assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO items (id, name) VALUES (1, 'dup')"));
        }
    }

    private static Set<String> tables(Path folder, String leaf) throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Connection c = new SqliteFiles(folder, leaf).direct(leaf); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    /** Three levels: a top over a middle controller over a sub-controller over two SQLite leaves. */
    @Test
    void aTreeThreeLevelsDeepReplicatesToItsLeaves() throws Exception {
        Controller bottom = start("bottom", sqlite("l1", "l2"), "<requestManager replication=\"RAIDb-1\" waitPolicy=\"first\"/>");
        Controller middle = start("middle", controllerBackend("bottom", bottom, "bottom") + sqlite("m1"),
                "<requestManager replication=\"RAIDb-1\" waitPolicy=\"first\"/>");
        Controller top = start("top", controllerBackend("middle", middle, "middle") + sqlite("t1"),
                "<requestManager replication=\"RAIDb-1\" waitPolicy=\"first\"/>");
        try (Connection c = connect(top, "top"); Statement s = c.createStatement()) {
            assertEquals("SQLite", c.getMetaData().getDatabaseProductName());
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?)");
                 PreparedStatement sum = c.prepareStatement("SELECT COUNT(*), SUM(v) FROM t")) {
                for (int i = 1; i <= 50; i++) {
                    c.setAutoCommit(i % 5 != 0);
                    insert.setInt(1, i);
                    insert.setInt(2, i);
                    insert.executeUpdate();
                    try (ResultSet rs = sum.executeQuery()) {
                        rs.next();
                        assertArrayEquals(new long[] {i, (long) i * (i + 1) / 2}, new long[] {rs.getLong(1), rs.getLong(2)},
                                "read your writes through three levels");
                    }
                    if (!c.getAutoCommit()) {
                        c.commit();
                    }
                }
            }
        }
        stop();
        started.clear();
        String expected = checksum(dir.resolve("top"), "t1");
        assertEquals(expected, checksum(dir.resolve("middle"), "m1"));
        assertEquals(expected, checksum(dir.resolve("bottom"), "l1"));
        assertEquals(expected, checksum(dir.resolve("bottom"), "l2"));
        assertTrue(expected.startsWith("50:"), expected);
    }

    private static String checksum(Path folder, String leaf) throws SQLException {
        return new SqliteFiles(folder, leaf).checksum(leaf, "t", "id");
    }
}
