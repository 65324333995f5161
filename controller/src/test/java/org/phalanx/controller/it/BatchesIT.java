package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;
import org.phalanx.driver.PhalanxConnection;

/**
 * A prepared statement's batch inside a transaction runs as one JDBC batch on each backend (one
 * execution there, not one per element), on three replicas of SQLite, PostgreSQL and MariaDB; an
 * element that fails makes the batch fail with {@link BatchUpdateException} and the transaction
 * roll back, as on PostgreSQL, leaving every replica without any of its rows and every backend
 * enabled. An auto-commit batch is one unit too; should an element fail, what is left committed is
 * what the engine's own driver leaves on one database (measured here on one).
 */
class BatchesIT extends WithEngineCluster {
    private static final int ROWS = 50;

    private Connection start(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 3, "phalanx_batches", "");
        Connection c = cluster.connect();
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL)");
        }
        return c;
    }

    private static void addRows(PreparedStatement ps, int from, int to) throws SQLException {
        for (int i = from; i < to; i++) {
            ps.setInt(1, i);
            ps.setString(2, "item " + i);
            ps.addBatch();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aBatchInATransactionIsOneExecutionOnEachBackend(Kind kind) throws Exception {
        try (Connection c = start(kind)) {
            c.setAutoCommit(false);
            long before = cluster.slow().executions.get();
            long[] counts;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
                addRows(ps, 0, ROWS);
                counts = ps.executeLargeBatch();
            }
            c.commit();
            long executions = cluster.slow().executions.get() - before;
            assertEquals(ROWS, counts.length);
            for (long n : counts) {
                assertTrue(n == 1 || n == Statement.SUCCESS_NO_INFO, "count " + n);
            }
            // the batch, the commit, and the transaction's begin on some engines: never one per row
            assertTrue(executions <= 3, executions + " executions on the third backend for " + ROWS + " rows");
            assertEquals(ROWS, one(c, "SELECT COUNT(*) FROM item"));
            c.commit();
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement("UPDATE item SET name = ? WHERE id = ?")) {
                for (int i = 0; i < 5; i++) {
                    ps.setString(1, "renamed");
                    ps.setInt(2, i);
                    ps.addBatch();
                }
                assertEquals(5, ps.executeBatch().length);
            }
            assertEquals(5, one(c, "SELECT COUNT(*) FROM item WHERE name = 'renamed'"));
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(ROWS, cluster.assertIdentical("item", "id"));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anAutoCommitBatchIsOneExecutionOnEachBackend(Kind kind) throws Exception {
        try (Connection c = start(kind)) {
            long before = cluster.slow().executions.get();
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
                addRows(ps, 0, ROWS);
                assertEquals(ROWS, ps.executeBatch().length);
            }
            long executions = cluster.slow().executions.get() - before;
            // the batch, its commit, and the transaction's begin on some engines: never one per row
            assertTrue(executions <= 3, executions + " executions on the third backend for " + ROWS + " rows");
            assertEquals(ROWS, one(c, "SELECT COUNT(*) FROM item"));
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(ROWS, cluster.assertIdentical("item", "id"));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aFailedElementOfAnAutoCommitBatchLeavesWhatOneDatabaseWould(Kind kind) throws Exception {
        long alone;
        try (Connection c = start(kind); Connection direct = cluster.direct(cluster.backends().get(0))) {
            alone = failingAutoCommitBatch(direct, "alone");
            try (Statement s = direct.createStatement()) {
                s.executeUpdate("DROP TABLE alone");
            }
            assertEquals(alone, failingAutoCommitBatch(c, "item"),
                    "rows committed by the failed batch, against the engine's own driver on one database");
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(alone, cluster.assertIdentical("item", "id"));
    }

    /** Rows 0..9, a duplicate of 5, rows 10..19 in one auto-commit batch; the rows left afterwards. */
    private static long failingAutoCommitBatch(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE IF NOT EXISTS " + table + " (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL)");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, name) VALUES (?, ?)")) {
            addRows(ps, 0, 10);
            addRows(ps, 5, 6);
            addRows(ps, 10, 20);
            // sqlite-jdbc throws a plain SQLException; Phalanx the BatchUpdateException JDBC asks for
            Class<? extends SQLException> expected = c instanceof PhalanxConnection ? BatchUpdateException.class
                    : SQLException.class;
            SQLException e = assertThrows(expected, ps::executeBatch);
            assertTrue(e.getSQLState() == null && c.getMetaData().getURL().startsWith("jdbc:sqlite:")
                    || e.getSQLState().startsWith("23"), e.getSQLState() + " " + e);
        }
        assertTrue(c.getAutoCommit());
        return one(c, "SELECT COUNT(*) FROM " + table);
    }

    /**
     * A statement's batch of SQL texts: one execution on each backend where the engine's driver
     * runs it as one unit (pgjdbc: one implicit transaction; sqlite-jdbc), element by element on
     * MariaDB, whose Connector/J runs the others after a failed one; a failed element leaves the
     * rows, and on MariaDB the update counts, that the engine's own driver leaves on one database.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aStatementBatchIsRunAsTheEnginesDriverRunsIt(Kind kind) throws Exception {
        try (Connection c = start(kind); Connection direct = cluster.direct(cluster.backends().get(0))) {
            long before = cluster.slow().executions.get();
            try (Statement s = c.createStatement()) {
                for (int i = 0; i < 50; i++) {
                    s.addBatch("INSERT INTO item (id, name) VALUES (" + i + ", 'item " + i + "')");
                }
                s.addBatch("UPDATE item SET name = 'first' WHERE id = 0");
                long[] counts = s.executeLargeBatch();
                assertEquals(51, counts.length);
            }
            long executions = cluster.slow().executions.get() - before;
            if (kind != Kind.MARIADB) {
                assertTrue(executions <= 3, executions + " executions on the third backend for 51 statements");
            }
            assertEquals(1, one(c, "SELECT COUNT(*) FROM item WHERE name = 'first'"));

            String[] failing = {"INSERT INTO %s (id, name) VALUES (100, 'a')", "INSERT INTO %s (id, name) VALUES (101, 'b')",
                "INSERT INTO %s (id, name) VALUES (100, 'again')", "INSERT INTO %s (id, name) VALUES (102, 'c')"};
            try (Statement s = direct.createStatement()) {
                s.executeUpdate("CREATE TABLE alone (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL)");
            }
            long[] alone = failingStatementBatch(direct, "alone", failing);
            long[] virtual = failingStatementBatch(c, "item", failing);
            assertEquals(one(direct, "SELECT COUNT(*) FROM alone"), one(c, "SELECT COUNT(*) FROM item WHERE id >= 100"),
                    "rows committed by the failed batch, against the engine's own driver on one database");
            if (kind == Kind.MARIADB) {
                assertEquals(java.util.Arrays.toString(alone), java.util.Arrays.toString(virtual), "update counts");
            }
            try (Statement s = direct.createStatement()) {
                s.executeUpdate("DROP TABLE alone");
            }
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("item", "id");
    }

    /** The update counts of the BatchUpdateException the batch fails with. */
    private static long[] failingStatementBatch(Connection c, String table, String[] statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.addBatch(String.format(sql, table));
            }
            SQLException e = assertThrows(SQLException.class, s::executeBatch);
            return e instanceof BatchUpdateException b ? b.getLargeUpdateCounts() : new long[0];
        }
    }

    /** A batch asked for generated keys returns those the engine's own driver returns on one database. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aBatchReturnsTheGeneratedKeysTheEnginesDriverDoes(Kind kind) throws Exception {
        String key = switch (kind) {
            case SQLITE -> "id INTEGER PRIMARY KEY AUTOINCREMENT";
            case POSTGRESQL -> "id SERIAL PRIMARY KEY";
            case MARIADB -> "id INTEGER AUTO_INCREMENT PRIMARY KEY";
        };
        try (Connection c = start(kind); Connection direct = cluster.direct(cluster.backends().get(0))) {
            for (boolean autoCommit : new boolean[] {true, false}) {
                for (Connection on : List.of(direct, c)) {
                    String table = (on == direct ? "alone_" : "keyed_") + autoCommit;
                    try (Statement s = on.createStatement()) {
                        s.executeUpdate("CREATE TABLE " + table + " (" + key + ", name VARCHAR(20) NOT NULL)");
                    }
                }
                List<Long> expected = batchKeys(direct, "alone_" + autoCommit, autoCommit);
                assertEquals(expected, batchKeys(c, "keyed_" + autoCommit, autoCommit),
                        "keys of the batch (auto-commit " + autoCommit + "), against the engine's own driver");
            }
            try (Statement s = direct.createStatement()) {
                s.executeUpdate("DROP TABLE alone_true");
                s.executeUpdate("DROP TABLE alone_false");
            }
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("keyed_true", "id");
        cluster.assertIdentical("keyed_false", "id");
    }

    private static List<Long> batchKeys(Connection c, String table, boolean autoCommit) throws SQLException {
        c.setAutoCommit(autoCommit);
        List<Long> keys = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (name) VALUES (?)",
                Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 0; i < 5; i++) {
                ps.setString(1, "n" + i);
                ps.addBatch();
            }
            assertEquals(5, ps.executeBatch().length);
            try (ResultSet rs = ps.getGeneratedKeys()) {
                while (rs.next()) {
                    keys.add(rs.getLong(1));
                }
            }
        }
        if (!autoCommit) {
            c.commit();
            c.setAutoCommit(true);
        }
        return keys;
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aFailedElementRollsTheTransactionBackEverywhere(Kind kind) throws Exception {
        try (Connection c = start(kind)) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
                addRows(ps, 0, 10);
                addRows(ps, 5, 6); // a duplicate key
                addRows(ps, 10, 20);
                BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
                assertTrue(e.getSQLState() != null && e.getSQLState().startsWith("23"), e.getSQLState() + " " + e);
            }
            SQLException afterwards = assertThrows(SQLException.class, () -> one(c, "SELECT COUNT(*) FROM item"));
            assertEquals("25P02", afterwards.getSQLState(), afterwards.toString());
            c.rollback();
            assertEquals(0, one(c, "SELECT COUNT(*) FROM item"), "nothing of the batch is left");
            c.commit();
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(0, cluster.assertIdentical("item", "id"));
    }
}
