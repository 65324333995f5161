package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * A statement that outlives its {@code setQueryTimeout} fails with {@link SQLTimeoutException}
 * (SQLState HYT00) whichever engine ran it, as JDBC asks; the connection goes on and no backend
 * leaves service.
 */
class QueryTimeoutIT extends WithEngineCluster {
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aQueryPastItsTimeoutFailsWithSqlTimeoutException(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_query_timeout", "");
        String slow = switch (kind) {
            case POSTGRESQL -> "SELECT pg_sleep(5)";
            case MARIADB -> "SELECT SLEEP(5)";
            // a count that takes minutes (sqlite-jdbc does not enforce query timeouts: the controller does)
            case SQLITE -> "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)"
                    + " SELECT COUNT(*) FROM c";
        };
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            long start = System.nanoTime();
            SQLTimeoutException e = assertThrows(SQLTimeoutException.class, () -> s.executeQuery(slow).close());
            assertEquals("HYT00", e.getSQLState(), e.getMessage());
            // stopped at its timeout, on the first backend only (tried on each in turn, it took 2 s here, n s on n backends)
            assertEquals(true, System.nanoTime() - start < 1_900_000_000L, "it stopped at its timeout");
            assertEquals(1, one(c, "SELECT 1"));
            // a write past its timeout too, in auto-commit
            try (Statement w = c.createStatement()) {
                w.setQueryTimeout(1);
                w.executeUpdate("CREATE TABLE t (n INTEGER)");
                String slowWrite = switch (kind) {
                    case POSTGRESQL -> "INSERT INTO t SELECT 1 FROM pg_sleep(5)";
                    case MARIADB -> "INSERT INTO t SELECT SLEEP(5)";
                    case SQLITE -> "INSERT INTO t " + slow;
                };
                assertThrows(SQLTimeoutException.class, () -> w.executeUpdate(slowWrite));
            }
            assertEquals(0, one(c, "SELECT COUNT(*) FROM t"));
        }
        cluster.assertAllEnabled();
    }

    /**
     * A MariaDB session's own {@code max_statement_time} interrupts a write as MariaDB alone would:
     * its error at once, run once on each backend (taken for lock contention, it was run again and
     * again until the lock timeout, 30 s, with a new connection each time), nothing disabled.
     */
    @Test
    void aMariaDbWriteInterruptedByItsSessionsStatementTimeIsNotRetried() throws Exception {
        cluster = new EngineCluster(dir, Kind.MARIADB, 2, "phalanx_statement_time", "");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (n BIGINT)");
            s.execute("SET SESSION max_statement_time = 0.01");
            long before = cluster.slow().executions.get();
            s.executeUpdate("INSERT INTO t VALUES (1)");
            long once = cluster.slow().executions.get() - before; // the write, and the session's setting around it
            before = cluster.slow().executions.get();
            SQLException interrupted = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO t SELECT seq FROM seq_1_to_100000000"));
            assertEquals(1969, interrupted.getErrorCode(), interrupted.toString());
            long ran = cluster.slow().executions.get() - before;
            // retried as contention it ran again and again until the lock timeout; the margin is the controller's
            // one catalog read of t (at the first write after its creation settled), when it lands on this backend
            assertTrue(ran <= once + 3, "run once on the backend, not retried: " + ran + " executions against " + once);
        }
        assertEquals(1, cluster.assertIdentical("t", "n"));
    }
}
