package org.phalanx.requestmanager.backend;

import org.phalanx.engine.Engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pool whose connections are all in use is busy, not broken; a database that cannot be opened is broken. */
class BackendErrorsTest {
    @TempDir
    Path dir;

    private HikariDataSource pool(String url) {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(url);
        c.setMaximumPoolSize(1);
        c.setConnectionTimeout(2_000); // long enough for the first connection on a busy machine
        c.setInitializationFailTimeout(-1);
        return new HikariDataSource(c);
    }

    @Test
    void anExhaustedPoolIsContention() throws SQLException {
        try (HikariDataSource ds = pool("jdbc:sqlite:" + dir.resolve("busy.db")); Connection held = ds.getConnection()) {
            SQLException e = assertThrows(SQLException.class, ds::getConnection);
            assertTrue(BackendErrors.isContention(e, Engine.SQLITE), e.toString());
            assertFalse(BackendErrors.isConnectionFailure(e), e.toString());
        }
    }

    /**
     * A backend's pool with every connection held (an outside tester held 30 streaming result sets):
     * the error names the backend and what to do, with SQLState 53300, where HikariCP's named its pool
     * and came as HY000; still busy, not broken.
     */
    @Test
    void aBackendsExhaustedPoolSaysWhichBackendAndWhatToDo() throws SQLException {
        org.phalanx.requestmanager.backend.Backend b = new org.phalanx.requestmanager.backend.Backend(
                org.phalanx.requestmanager.config.BackendConfig.builder("db1", "jdbc:sqlite:" + dir.resolve("pool.db"))
                        .poolSize(1).build(), java.time.Duration.ofMillis(300), x -> { });
        try {
            try (Connection held = b.connectionFor("u")) {
                SQLException e = assertThrows(SQLException.class, () -> b.connectionFor("u"));
                org.junit.jupiter.api.Assertions.assertEquals("53300", e.getSQLState(), e.toString());
                assertTrue(e.getMessage().startsWith("backend db1: all its 1 pooled connections are in use"), e.getMessage());
                assertTrue(BackendErrors.isContention(e, Engine.SQLITE), e.toString());
                assertFalse(BackendErrors.isConnectionFailure(e), e.toString());
            }
        } finally {
            b.close(java.time.Duration.ZERO);
        }
    }

    /** HikariCP's timeout while it held connections, one of them idle at that instant: busy, not broken. */
    @Test
    void aPoolTimeoutWithAnIdleConnectionIsContentionToo() {
        SQLException e = new java.sql.SQLTransientConnectionException("phalanx-pg-postgres - Connection is not available,"
                + " request timed out after 5000ms (total=10, active=9, idle=1, waiting=3)");
        assertTrue(BackendErrors.isContention(e, Engine.POSTGRESQL), e.toString());
        assertFalse(BackendErrors.isConnectionFailure(e), e.toString());
        SQLException none = new java.sql.SQLTransientConnectionException("phalanx-pg-postgres - Connection is not available,"
                + " request timed out after 5000ms (total=0, active=0, idle=0, waiting=3)");
        assertTrue(BackendErrors.isConnectionFailure(none), "no connection at all: the backend may be unreachable");
    }

    @Test
    void aDatabaseThatCannotBeReachedIsAConnectionFailure() {
        try (HikariDataSource ds = pool("jdbc:postgresql://127.0.0.1:1/nothing")) {
            SQLException e = assertThrows(SQLException.class, ds::getConnection);
            assertTrue(BackendErrors.isConnectionFailure(e), e.toString());
            assertFalse(BackendErrors.isContention(e, Engine.POSTGRESQL), e.toString());
        }
    }

    /**
     * A backend none of whose connections opens says which backend, at which address, and why, in
     * place of HikariCP's "Connection is not available ... (total=0 ...)"; still a connection failure.
     */
    @Test
    void aBackendThatCannotBeReachedSaysWhichAndWhere() {
        Backend b = new Backend(org.phalanx.requestmanager.config.BackendConfig.builder("far",
                "jdbc:postgresql://127.0.0.1:1/nothing?password=secret").poolSize(1).build(), java.time.Duration.ofSeconds(2), x -> { });
        try {
            SQLException e = assertThrows(SQLException.class, () -> b.connection(b.config().credentials()).close());
            assertTrue(e.getMessage().startsWith("backend far could not be reached at jdbc:postgresql://127.0.0.1:1/nothing"),
                    e.getMessage());
            assertFalse(e.getMessage().contains("secret"), e.getMessage());
            assertTrue(BackendErrors.isConnectionFailure(e), e.toString());
        } finally {
            b.close(java.time.Duration.ofSeconds(5));
        }
    }

    /** A branch whose earlier statement lost the connection fails its commit so: lost, not refused. */
    @Test
    void aConnectionThePoolGaveUpIsAConnectionFailure() throws SQLException {
        try (HikariDataSource ds = pool("jdbc:sqlite:" + dir.resolve("given-up.db"))) {
            Connection c = ds.getConnection();
            c.close();
            SQLException e = assertThrows(SQLException.class, c::commit);
            assertTrue(BackendErrors.isConnectionFailure(e), e.toString());
        }
    }

    /**
     * A PostgreSQL session ended by the server (a restart, pg_terminate_backend): pgjdbc throws
     * {@code 57P01} as a plain SQLException, but the connection is gone, not the statement refused.
     */
    @Test
    void aSessionTheServerEndedIsAConnectionFailure() throws Exception {
        try (org.phalanx.testing.ServerDatabase db = org.phalanx.testing.ServerDatabase.create("postgresql", "phalanx_ended");
             Connection ended = java.sql.DriverManager.getConnection(db.url(), db.login().user(), db.login().password());
             Connection admin = java.sql.DriverManager.getConnection(db.url(), db.login().user(), db.login().password())) {
            int pid;
            try (java.sql.Statement s = ended.createStatement(); java.sql.ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                pid = rs.getInt(1);
            }
            try (java.sql.Statement s = admin.createStatement()) {
                s.execute("SELECT pg_terminate_backend(" + pid + ")");
            }
            SQLException e = assertThrows(SQLException.class, () -> {
                try (java.sql.Statement s = ended.createStatement()) {
                    s.execute("CREATE TABLE t (id INTEGER)");
                }
            });
            assertTrue(BackendErrors.isConnectionFailure(e), e.getSQLState() + " " + e);
            assertFalse(BackendErrors.isStatementError(e));
        }
        assertTrue(BackendErrors.isConnectionFailure(new SQLException("terminating connection due to administrator command", "57P01")));
        assertFalse(BackendErrors.isConnectionFailure(new SQLException("canceling statement due to user request", "57014")));
    }

    /** MariaDB Connector/J throws a strict-mode truncation so: the statement's outcome, not a lost connection. */
    @Test
    void aConnectionExceptionTypeWithAStatementsSqlStateIsTheStatementsOutcome() {
        assertFalse(BackendErrors.isConnectionFailure(
                new java.sql.SQLTransientConnectionException("Data truncated for column 'e' at row 1", "01000", 1265)));
        assertTrue(BackendErrors.isConnectionFailure(
                new java.sql.SQLTransientConnectionException("Socket error", "08000")));
        assertTrue(BackendErrors.isConnectionFailure(new java.sql.SQLNonTransientConnectionException("gone")));
    }
}
