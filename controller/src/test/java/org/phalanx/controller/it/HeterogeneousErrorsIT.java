package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.api.BackendState;

/**
 * Heterogeneous done-when 4: a constraint violation fails the statement for the client with a
 * class 23 SQLState whichever engine raised it, and leaves every replica enabled and identical; a
 * failure of one replica only (its table dropped by hand) takes out that replica alone.
 */
class HeterogeneousErrorsIT {
    private static final Map<String, BackendState> ALL_ENABLED = HeterogeneousCluster.ALL_ENABLED;

    @TempDir
    Path dir;

    /** Issue 15: a read's error never disables a replica; a read one engine alone runs is answered by it. */
    @Test
    void aReadOneEngineAloneCanRunIsAnsweredAndDisablesNothing() throws Exception {
        try (HeterogeneousCluster cluster = new HeterogeneousCluster(dir, "phalanx_hetero_reads", "all")) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
                s.executeUpdate("INSERT INTO counters VALUES (1, 7)");
                for (int i = 0; i < 9; i++) { // round robin: each replica is asked first in turn
                    // typeof() is SQLite's own; PostgreSQL and MariaDB refuse it
                    try (ResultSet rs = s.executeQuery("SELECT typeof(n) FROM counters WHERE id = 1")) {
                        assertTrue(rs.next());
                        assertEquals("integer", rs.getString(1));
                    }
                    assertThrows(SQLException.class, () -> s.executeQuery("SELECT no_such_column FROM counters"));
                }
                try (ResultSet rs = s.executeQuery("SELECT n FROM counters WHERE id = 1")) {
                    assertTrue(rs.next());
                    assertEquals(7, rs.getInt(1));
                }
            }
            assertEquals(ALL_ENABLED, cluster.vdb().backendStates());
        }
    }

    /**
     * Issue 15: a value larger than MariaDB's max_allowed_packet (16 MB here) is refused up front,
     * as MariaDB alone would refuse it (sent, the server would close the connection and the replica
     * could never be caught up): SQLState 54000, stored nowhere, nothing disabled.
     */
    @Test
    void aValueTooLargeForOneReplicaIsRefusedUpFrontAndDisablesNothing() throws Exception {
        try (HeterogeneousCluster cluster = new HeterogeneousCluster(dir, "phalanx_hetero_blob", "all")) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE files (id INTEGER PRIMARY KEY, body BLOB)");
                try (java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO files VALUES (?, ?)")) {
                    ps.setInt(1, 1);
                    ps.setBytes(2, new byte[20 << 20]);
                    SQLException tooLarge = assertThrows(SQLException.class, ps::executeUpdate);
                    assertEquals("54000", tooLarge.getSQLState(), tooLarge.getMessage());
                    assertTrue(tooLarge.getMessage().contains("maria"), tooLarge.getMessage());
                    ps.setInt(1, 2);
                    ps.setBytes(2, new byte[1 << 20]);
                    assertEquals(1, ps.executeUpdate());
                }
                // counted in bytes as the server receives them: 6 M characters of three bytes each
                s.executeUpdate("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
                try (java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO notes VALUES (?, ?)")) {
                    ps.setInt(1, 1);
                    ps.setString(2, "\u4e2d".repeat(6_000_000));
                    SQLException tooLarge = assertThrows(SQLException.class, ps::executeUpdate);
                    assertEquals("54000", tooLarge.getSQLState(), tooLarge.getMessage());
                    ps.setString(2, "\u4e2d".repeat(1000));
                    assertEquals(1, ps.executeUpdate());
                }
            }
            assertEquals(ALL_ENABLED, cluster.vdb().backendStates());
            assertEquals(1, cluster.assertIdentical("files", "id"));
            assertEquals(1, cluster.assertIdentical("notes", "id"));
        }
    }

    /**
     * Issue 15: the backends' agreed outcome is the client's. SQLite stores text in an integer column
     * while PostgreSQL and MariaDB refuse it: under the 'first' policy the client still gets the
     * majority's error, SQLite's update is rolled back, nothing is disabled. (Issue 20: a write that
     * divides, whose outcome the engines disagree on, is refused before it runs.)
     */
    @Test
    void aWriteTheMajorityRefusesIsTheClientsErrorAndDisablesNothing() throws Exception {
        try (HeterogeneousCluster cluster = new HeterogeneousCluster(dir, "phalanx_hetero_agree", "first")) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE acc (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER,"
                        + " v INTEGER CHECK (v >= 0))");
                s.executeUpdate("INSERT INTO acc VALUES (1, 10, 0, 1)");
                for (int i = 0; i < 3; i++) {
                    // text into an integer column: SQLite stores it, PostgreSQL and MariaDB refuse it
                    SQLException type = assertThrows(SQLException.class,
                            () -> s.executeUpdate("UPDATE acc SET a = 'ten'"));
                    assertTrue(type.getSQLState().startsWith("22"), type.getSQLState() + " " + type.getMessage());
                    assertConstraint(s, "INSERT INTO acc VALUES (2, 0, 0, -1)");
                    // a division, which the engines do not agree on (by zero: SQLite gives NULL), is refused
                    // before it runs: the declared dialect's meaning cannot be had on every engine
                    SQLException division = assertThrows(SQLException.class,
                            () -> s.executeUpdate("UPDATE acc SET a = a / b"));
                    assertEquals("0A000", division.getSQLState(), division.getMessage());
                }
                try (ResultSet rs = s.executeQuery("SELECT a FROM acc WHERE id = 1")) {
                    assertTrue(rs.next());
                    assertEquals(10, rs.getInt(1));
                }
            }
            assertEquals(ALL_ENABLED, cluster.vdb().backendStates());
            assertEquals(1, cluster.assertIdentical("acc", "id"));
        }
    }

    @Test
    void constraintViolationsAreTheApplicationsErrorOnEveryEngine() throws Exception {
        try (HeterogeneousCluster cluster = new HeterogeneousCluster(dir, "phalanx_hetero_errors", "all")) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE members (id INTEGER PRIMARY KEY, email VARCHAR(80) NOT NULL UNIQUE,"
                        + " name VARCHAR(40))");
                s.executeUpdate("INSERT INTO members VALUES (1, 'a@example.org', 'a')");

                assertConstraint(s, "INSERT INTO members VALUES (2, 'a@example.org', 'same email')");
                assertConstraint(s, "INSERT INTO members VALUES (1, 'b@example.org', 'same key')");
                assertConstraint(s, "INSERT INTO members (id, name) VALUES (3, 'no email')");
                assertEquals(ALL_ENABLED, cluster.vdb().backendStates());

                // inside a transaction: the statement fails; PostgreSQL has aborted its branch while the
                // other engines have not, so the transaction ends everywhere instead of diverging
                c.setAutoCommit(false);
                s.executeUpdate("INSERT INTO members VALUES (4, 'd@example.org', 'in tx')");
                assertConstraint(s, "INSERT INTO members VALUES (5, 'd@example.org', 'dup in tx')");
                SQLException aborted = assertThrows(SQLException.class,
                        () -> s.executeUpdate("INSERT INTO members VALUES (6, 'f@example.org', 'after')"));
                assertEquals("25P02", aborted.getSQLState());
                c.rollback();
                c.setAutoCommit(true);
                s.executeUpdate("INSERT INTO members VALUES (7, 'g@example.org', 'afterwards')");
                assertEquals(ALL_ENABLED, cluster.vdb().backendStates());
            }

            // the same violation raised by each engine alone
            for (String only : HeterogeneousCluster.BACKENDS) {
                String state = cluster.withOnly(only, () -> {
                    try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                        return assertConstraint(s, "INSERT INTO members VALUES (8, 'a@example.org', 'dup')");
                    }
                });
                assertTrue(state.startsWith("23"), only + " raised " + state);
            }
            assertEquals(ALL_ENABLED, cluster.vdb().backendStates());
            assertEquals(2, cluster.assertIdentical("members", "id"));

            // a failure on one replica only: its table dropped behind Phalanx's back
            try (Connection direct = cluster.direct("maria"); Statement s = direct.createStatement()) {
                s.execute("DROP TABLE members");
            }
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                assertEquals(1, s.executeUpdate("INSERT INTO members VALUES (9, 'i@example.org', 'two of three')"));
            }
            assertEquals(Map.of("lite", BackendState.ENABLED, "pg", BackendState.ENABLED, "maria", BackendState.DISABLED),
                    cluster.vdb().backendStates());
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                assertEquals(1, s.executeUpdate("INSERT INTO members VALUES (10, 'j@example.org', 'still served')"));
            }
            cluster.controller.stop();
            java.util.List<java.util.List<Object>> lite = cluster.rows("lite", "members", "id");
            assertEquals(4, lite.size());
            assertEquals(lite, cluster.rows("pg", "members", "id"), "the two healthy replicas stay identical");
        }
    }

    /** The statement fails with a class 23 SQLState; returns it. */
    private static String assertConstraint(Statement s, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(sql), sql);
        assertTrue(e.getSQLState() != null && e.getSQLState().startsWith("23"),
                sql + " failed with SQLState " + e.getSQLState() + ": " + e.getMessage());
        return e.getSQLState();
    }
}
