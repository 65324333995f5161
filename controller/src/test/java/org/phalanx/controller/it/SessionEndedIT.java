package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * A client that ends its own session on the backends - {@code pg_terminate_backend} of itself, an
 * idle-in-transaction timeout (PostgreSQL), a {@code wait_timeout} (MariaDB) - gets what one database
 * gives it (an error; its transaction rolled back), and every backend stays in service: each of these
 * took every replica out of service in turn (an outside tester's finding), since a lost connection
 * was taken for a lost backend.
 */
class SessionEndedIT extends WithEngineCluster {
    private static final String RECOVERY_LOG = "<recoveryLog dir=\"log\"/>";
    @Test
    void aSessionThatTerminatesItselfDisablesNoBackend() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_session_ended", "", "", RECOVERY_LOG);
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            SQLException killed = assertThrows(SQLException.class,
                    () -> s.executeQuery("SELECT pg_terminate_backend(pg_backend_pid())"));
            assertEquals("57P01", killed.getSQLState(), killed.toString());
            cluster.assertAllEnabled();
            assertEquals(0, count(s));

            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t VALUES (1)");
            killed = assertThrows(SQLException.class, () -> s.executeQuery("SELECT pg_terminate_backend(pg_backend_pid())"));
            assertEquals("57P01", killed.getSQLState(), killed.toString());
            c.rollback();
            c.setAutoCommit(true);
            cluster.assertAllEnabled();
            assertEquals(0, count(s), "the transaction was rolled back everywhere");
        }
        cluster.stopController();
        assertEquals(0, cluster.assertIdentical("t", "id"));
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void anIdleTimeoutEndsTheTransactionNotTheBackends(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_session_idle", "", "", RECOVERY_LOG);
        long idleMillis = kind == Kind.POSTGRESQL ? 800 : 2_500;
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            s.execute(kind == Kind.POSTGRESQL ? "SET idle_in_transaction_session_timeout = '300ms'"
                    : "SET SESSION wait_timeout = 1");
            c.setAutoCommit(false);

            s.executeUpdate("INSERT INTO t VALUES (1)");
            Thread.sleep(idleMillis);
            assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO t VALUES (2)"));
            c.rollback(); // the branches are gone: nothing is left to roll back, and that is no error
            cluster.assertAllEnabled();

            s.executeUpdate("INSERT INTO t VALUES (3)");
            Thread.sleep(idleMillis);
            SQLException commit = assertThrows(SQLException.class, c::commit);
            assertEquals("40001", commit.getSQLState(), commit.toString()); // rolled back: safe to run again
            cluster.assertAllEnabled();

            s.executeUpdate("INSERT INTO t VALUES (4)");
            c.commit();
            c.setAutoCommit(true);
            Thread.sleep(idleMillis); // pooled connections with the session's timeout die idle too
            assertEquals(1, count(s));
            cluster.assertAllEnabled();
        }
        cluster.stopController();
        assertEquals(1, cluster.assertIdentical("t", "id"));
    }

    /**
     * A DBA ends every session of the backends' databases (PostgreSQL's pg_terminate_backend,
     * MariaDB's KILL) while the pools hold them: the next writes and reads run on new connections,
     * once each backend's record (or PostgreSQL's FATAL answer) shows the killed attempt did not
     * happen. Each such write took its backend out of service.
     */
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void aDbaEndingThePoolsSessionsCostsNoWriteAndNoBackend(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_session_killed", "", "", RECOVERY_LOG);
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            for (int round = 0; round < 5; round++) {
                s.executeUpdate("INSERT INTO t VALUES (" + (2 * round) + ")"); // the pools' connections, just used
                for (String backend : cluster.backends()) {
                    killOtherSessions(kind, backend);
                }
                assertEquals(1, s.executeUpdate("INSERT INTO t VALUES (" + (2 * round + 1) + ")"));
                assertEquals(2 * round + 2, count(s));
                cluster.assertAllEnabled();
            }
        }
        cluster.stopController();
        assertEquals(10, cluster.assertIdentical("t", "id"));
    }

    /** Ends every other session of the backend's database, and waits until they are gone. */
    private void killOtherSessions(Kind kind, String backend) throws SQLException, InterruptedException {
        boolean postgres = kind == Kind.POSTGRESQL;
        String others = postgres
                ? "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                : "SELECT id FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()";
        try (Connection dba = cluster.direct(backend); Statement s = dba.createStatement()) {
            java.util.Set<Long> killed = sessions(s, others);
            for (long id : killed) {
                try {
                    s.execute(postgres ? "SELECT pg_terminate_backend(" + id + ")" : "KILL CONNECTION " + id);
                } catch (SQLException gone) {
                    // it ended meanwhile
                }
            }
            for (int i = 0; i < 100; i++) { // the server ends them asynchronously
                java.util.Set<Long> left = sessions(s, others);
                left.retainAll(killed);
                if (left.isEmpty()) {
                    return;
                }
                Thread.sleep(20);
            }
        }
    }

    private static java.util.Set<Long> sessions(Statement s, String query) throws SQLException {
        java.util.Set<Long> ids = new java.util.HashSet<>();
        try (ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private static long count(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
