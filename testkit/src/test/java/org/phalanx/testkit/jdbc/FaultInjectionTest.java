package org.phalanx.testkit.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fault knobs of a {@code jdbc:faulty:NAME:...} backend, over a SQLite file. */
class FaultInjectionTest {
    @TempDir
    Path dir;

    private String url(String name) {
        return FaultyDriver.url(name, "jdbc:sqlite:" + dir.resolve(name + ".db"));
    }

    @Test
    void urlsKeepTheRealUrlVisible() throws SQLException {
        assertEquals("jdbc:faulty:b1:jdbc:sqlite:/x/b1.db", FaultyDriver.url("b1", "jdbc:sqlite:/x/b1.db"));
        FaultyUrl plain = FaultyUrl.parse("jdbc:faulty:b1:jdbc:sqlite:/x/b1.db");
        assertEquals("b1", plain.name());
        assertFalse(plain.emulatesCapacity());
        assertEquals("jdbc:sqlite:/x/b1.db", plain.realUrl());
        FaultyUrl emulated = FaultyUrl.parse(FaultyDriver.url("b2", 3, Path.of("/m.costs"), null, "jdbc:sqlite:/x/b2.db"));
        assertEquals(3, emulated.slots());
        assertEquals(Path.of("/m.costs"), emulated.costs());
        assertEquals("jdbc:sqlite:/x/b2.db", emulated.realUrl());
        assertThrows(SQLException.class, () -> FaultyUrl.parse("jdbc:faulty:nothing-after-the-name"));
    }

    @Test
    void executionsAndRowsReadAreCounted() throws SQLException {
        Fault fault = FaultyDriver.fault("counted");
        fault.reset();
        try (Connection c = DriverManager.getConnection(url("counted")); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
                for (int i = 1; i <= 3; i++) {
                    ps.setInt(1, i);
                    ps.executeUpdate();
                }
                assertSame(c, ps.getConnection(), "statements hand back the wrapped connection");
            }
            try (ResultSet rs = s.executeQuery("SELECT id FROM t ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
            }
        }
        assertEquals(5, fault.executions.get());
        assertEquals(1, fault.rowsRead.get());
    }

    @Test
    void aBrokenBackendFailsLikeADeadConnectionButKeepsReceivedRows() throws SQLException {
        Fault fault = FaultyDriver.fault("broken");
        fault.reset();
        try (Connection c = DriverManager.getConnection(url("broken")); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            s.execute("INSERT INTO t VALUES (1), (2)");
            try (ResultSet rs = s.executeQuery("SELECT id FROM t ORDER BY id")) {
                fault.broken = true;
                assertTrue(rs.next(), "a result already returned keeps its rows");
                SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1"));
                assertEquals("08006", e.getSQLState());
                assertFalse(c.isValid(1));
                assertTrue(c.toString().startsWith("faulty[broken]"), "Object methods never fail");
                assertEquals(c.hashCode(), c.hashCode());
                assertThrows(SQLException.class, () -> DriverManager.getConnection(url("broken")));
            } finally {
                fault.broken = false;
            }
            assertTrue(c.isValid(1), "repaired");
        }
    }

    @Test
    void theDelayComesFromASystemPropertyInAProcessOfItsOwn() {
        System.setProperty("faulty.from-property.delayMillis", "7");
        try {
            assertEquals(7, FaultyDriver.fault("from-property").delayMillis);
        } finally {
            System.clearProperty("faulty.from-property.delayMillis");
        }
    }
}
