package org.phalanx.testkit.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The capacity emulation keeps results correct and counts what it emulates; no timing is asserted. */
class EmulatedCapacityTest {

    @Test
    void statementsReallyRunAndAreClassified(@TempDir Path dir) throws Exception {
        CostModel model = CostModel.builder().add("write", Duration.ofNanos(1000), "^\\s*(insert|update)")
                .add("ddl", Duration.ZERO, "^\\s*CREATE").add("commit", Duration.ZERO, CostModel.COMMIT)
                .add("read", Duration.ofNanos(1000), ".").build();
        Path costs = dir.resolve("m.costs");
        model.write(costs);
        String url = FaultyDriver.url("test-b1", 2, costs, null, "jdbc:sqlite:" + dir.resolve("b1.db"));
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t (id, v) VALUES (?, ?)")) {
                for (int i = 1; i <= 3; i++) {
                    ps.setInt(1, i);
                    ps.setInt(2, i * 10);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            c.setAutoCommit(true);
            try (ResultSet rs = s.executeQuery("SELECT SUM(v) FROM t")) {
                assertTrue(rs.next());
                assertEquals(60, rs.getInt(1));
            }
            assertEquals(c, s.getConnection(), "statements hand back the emulated connection");
        }
        EmulatedServer server = EmulatedServer.all().stream().filter(x -> x.name().equals("test-b1")).findFirst()
                .orElseThrow();
        assertEquals(3, server.perClass().get("write")[0], "a batch of three counts three writes");
        assertEquals(1, server.perClass().get("commit")[0]);
        assertEquals(1, server.perClass().get("read")[0]);
        assertEquals(2, server.slots());
    }

    @Test
    void costModelFilesReadBack(@TempDir Path dir) throws Exception {
        CostModel model = CostModel.builder().add("heavy", Duration.ofMillis(100), "GROUP\\s+BY")
                .add("write", Duration.ofNanos(100_000), "^\\s*(INSERT|UPDATE|DELETE)")
                .add("light", Duration.ofMillis(2), ".").build();
        Path file = dir.resolve("x.costs");
        model.write(file);
        CostModel back = CostModel.load(file);
        assertEquals(model.classes(), back.classes());
        assertEquals("heavy", back.classify("SELECT a, COUNT(*) FROM t GROUP  BY a").name());
        assertEquals("write", back.classify("  update t set a = 1").name());
        assertEquals("light", back.classify("SELECT 1").name());
        assertThrows(IllegalArgumentException.class, () -> CostModel.load(dir.resolve("missing.costs")));
    }

    @Test
    void badUrlsAreRefused() {
        SQLException e = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:faulty:name=x;slots=0:jdbc:sqlite::memory:"));
        assertTrue(e.getMessage().contains("slots"), e.getMessage());
    }
}
