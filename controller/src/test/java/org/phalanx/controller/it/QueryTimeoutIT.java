package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.controller.it.Sql.one;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * A statement that outlives its {@code setQueryTimeout} fails with {@link SQLTimeoutException}
 * (SQLState HYT00) whichever engine ran it, as JDBC asks; the connection goes on and no backend
 * leaves service.
 */
class QueryTimeoutIT {
    @TempDir
    Path dir;
    private EngineCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

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
            assertEquals(true, System.nanoTime() - start < 4_000_000_000L, "it stopped at its timeout");
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
}
