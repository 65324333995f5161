package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.testing.Sessions.update;
import static org.phalanx.testing.Sessions.value;

import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.testing.EngineReplicas;

/**
 * Where the engines differ on a transaction's statements, a virtual database of one engine does as
 * that engine does (each case checked against one database of it): a BEGIN inside a transaction,
 * the commit of a transaction a failed statement aborted, and statements that lock tables.
 */
class EngineTransactionRulesTest {
    @TempDir
    Path dir;
    private EngineReplicas replicas;

    @AfterEach
    void stop() {
        if (replicas != null) {
            replicas.close();
        }
    }

    private RequestManager start(String engine) throws SQLException {
        replicas = new EngineReplicas(engine, dir, "phalanx_tx_rules");
        return replicas.requestManager();
    }

    private void assertReplicas(String ids) throws SQLException {
        assertEquals(List.of(ids, ids), replicas.ids("t"));
    }

    /**
     * MariaDB commits the open transaction and starts another (what it wrote survives the rollback
     * that follows); SQLite refuses the BEGIN and the transaction goes on; PostgreSQL only warns.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql", "mariadb"})
    void aBeginInsideATransactionIsTakenAsTheEngineTakesIt(String engine) throws Exception {
        RequestManager rm = start(engine);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(s, "BEGIN");
            update(s, "INSERT INTO t VALUES (1)");
            if (engine.equals("sqlite")) {
                SQLException refused = assertThrows(SQLException.class, () -> update(s, "BEGIN"));
                assertEquals("25001", refused.getSQLState(), refused.getMessage());
                assertEquals(1, refused.getErrorCode());
            } else {
                update(s, "BEGIN");
            }
            update(s, "INSERT INTO t VALUES (2)");
            update(s, "ROLLBACK");
            String left = engine.equals("mariadb") ? "1" : "";
            assertEquals(left.isEmpty() ? 0L : 1L, ((Number) value(s, "SELECT count(*) FROM t")).longValue());
            assertReplicas(left);

            // with auto-commit off (the JDBC way) too: on MariaDB the BEGIN commits row 3
            s.setAutoCommit(false);
            update(s, "INSERT INTO t VALUES (3)");
            if (engine.equals("sqlite")) {
                assertThrows(SQLException.class, () -> update(s, "BEGIN"));
            } else {
                update(s, "BEGIN");
            }
            s.rollback();
            s.setAutoCommit(true);
            assertReplicas(engine.equals("mariadb") ? "1 3" : "");
        }
    }

    /** As on PostgreSQL: the COMMIT of a transaction a failed statement aborted rolls it back, without an error. */
    @Test
    void theCommitOfAFailedPostgresTransactionRollsItBack() throws Exception {
        RequestManager rm = start("postgresql");
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            s.setAutoCommit(false);
            update(s, "INSERT INTO t VALUES (1)");
            assertThrows(SQLException.class, () -> update(s, "INSERT INTO t VALUES (1)"));
            s.commit();
            assertEquals(0L, ((Number) value(s, "SELECT count(*) FROM t")).longValue());
            update(s, "INSERT INTO t VALUES (2)"); // the next transaction is a fresh one
            update(s, "COMMIT");
            assertReplicas("2");
        }
    }

    /**
     * MariaDB's LOCK TABLES would leave its locks on pooled connections: refused, nothing locked
     * (another session writes the table at once), UNLOCK TABLES a no-op. PostgreSQL's LOCK belongs to
     * a transaction: refused outside one, as there, and run inside.
     */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void statementsBoundToABackendConnectionAreRefused(String engine) throws Exception {
        RequestManager rm = start(engine);
        try (Session s = rm.openSession("u"); Session other = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            // prepared statements and XA branches in SQL would stay on one pooled connection per backend
            for (String bound : engine.equals("mariadb")
                    ? new String[] {"PREPARE st FROM 'INSERT INTO t VALUES (9)'", "EXECUTE st", "EXECUTE IMMEDIATE 'SELECT 1'",
                            "DEALLOCATE PREPARE st", "XA START 'x1'"}
                    : new String[] {"PREPARE st (int) AS INSERT INTO t VALUES ($1)", "EXECUTE st(9)", "DEALLOCATE st",
                            "PREPARE TRANSACTION 'x1'", "COMMIT PREPARED 'x1'"}) {
                SQLException refused = assertThrows(SQLFeatureNotSupportedException.class, () -> update(s, bound));
                assertEquals("0A000", refused.getSQLState(), bound);
            }
            update(s, "DEALLOCATE ALL"); // a pooler's reset: nothing to deallocate
            if (engine.equals("mariadb")) {
                for (String lock : new String[] {"LOCK TABLES t WRITE", "lock table t read", "FLUSH TABLES WITH READ LOCK",
                        "FLUSH TABLES t FOR EXPORT"}) {
                    SQLException refused = assertThrows(SQLFeatureNotSupportedException.class, () -> update(s, lock));
                    assertEquals("0A000", refused.getSQLState(), lock);
                }
                update(other, "INSERT INTO t VALUES (1)");
                update(s, "INSERT INTO t VALUES (2)");
                update(s, "UNLOCK TABLES");
                assertReplicas("1 2");
                // a user variable set by a query would live on one backend's connection only
                // and one set by a write on the backends' pooled connections, not in the session
                // as would a procedure's OUT parameter, where other sessions saw it
                for (String assigns : new String[] {"SELECT @m := MAX(id) FROM t", "SELECT MAX(id) INTO @m FROM t",
                        "UPDATE t SET id = (@m := id) WHERE id = 2", "insert into t values (@m := 9)", "CALL p(3, @n)",
                        "call p(@n)"}) {
                    SQLException refused = assertThrows(SQLFeatureNotSupportedException.class, () -> update(s, assigns));
                    assertEquals("0A000", refused.getSQLState(), assigns);
                }
                update(s, "SET @m = (SELECT MAX(id) FROM t)");
                update(s, "INSERT INTO t VALUES (@m + 1)");
                assertReplicas("1 2 3");
            } else {
                SQLException outside = assertThrows(SQLException.class, () -> update(s, "LOCK TABLE t IN EXCLUSIVE MODE"));
                assertEquals("25P01", outside.getSQLState(), outside.getMessage());
                s.setAutoCommit(false);
                update(s, "LOCK TABLE t IN EXCLUSIVE MODE");
                update(s, "INSERT INTO t VALUES (1)");
                s.commit();
                update(other, "INSERT INTO t VALUES (2)");
                assertReplicas("1 2");
            }
        }
    }

    /**
     * MariaDB's strict-mode truncation (1265, SQLState 01000) is the statement's error on every
     * backend, as on one MariaDB: the backends agree and stay in service (its driver's exception type
     * had it taken for a lost connection, and every backend was disabled).
     */
    @Test
    void aTruncationEveryMariaDbBackendRefusesIsTheClientsError() throws Exception {
        RequestManager rm = start("mariadb");
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, e ENUM('x', 'y'))");
            SQLException truncated = assertThrows(SQLException.class, () -> update(s, "INSERT INTO t VALUES (1, 'bogus')"));
            assertEquals(1265, truncated.getErrorCode(), truncated.getMessage());
            assertEquals("01000", truncated.getSQLState());
            update(s, "INSERT INTO t VALUES (2, 'x')");
        }
        assertEquals(List.of("ENABLED", "ENABLED"), rm.backendStates().values().stream().map(String::valueOf).toList());
        assertReplicas("2");
    }
}
