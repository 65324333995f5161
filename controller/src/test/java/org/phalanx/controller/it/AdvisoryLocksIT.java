package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Advisory locks behave as on one database (issue 18): held by the session across the whole
 * virtual database of two backends — not by whichever pooled backend connection ran the call —
 * exactly one holder at a time, released by unlock, by the end of the transaction for the
 * transaction-level ones, and by the session's close.
 */
class AdvisoryLocksIT extends WithEngineCluster {
    @Test
    void postgresqlAdvisoryLocks() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_advisory_pg", "");
        try (Connection a = cluster.connect(); Connection b = cluster.connect()) {
            assertEquals("t", value(a, "SELECT pg_try_advisory_lock(?)", 42L));
            for (int i = 0; i < 4; i++) { // whichever backend would have served it
                assertEquals("f", value(b, "SELECT pg_try_advisory_lock(42)"), "a holds it");
            }
            assertEquals("t", value(a, "SELECT pg_try_advisory_lock(42)"), "again: a holds it twice");
            assertEquals("t", value(a, "SELECT pg_advisory_unlock(42)"));
            assertEquals("f", value(b, "SELECT pg_try_advisory_lock(42)"), "a still holds it once");
            assertEquals("f", value(b, "SELECT pg_advisory_unlock(42)"), "b cannot release a's lock");

            // b waits in pg_advisory_lock until a's unlock
            CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> quietly(b, "SELECT pg_advisory_lock(42)"));
            Thread.sleep(200);
            assertFalse(waiting.isDone(), "b waits for a's lock");
            assertEquals("t", value(a, "SELECT pg_advisory_unlock(42)"));
            assertEquals("", waiting.get(10, TimeUnit.SECONDS));
            assertEquals("f", value(a, "SELECT pg_try_advisory_lock(42)"), "b holds it now");
            assertEquals("t", value(b, "SELECT pg_advisory_unlock(42)"));

            // a transaction-level lock lasts until the transaction ends
            a.setAutoCommit(false);
            assertEquals("t", value(a, "SELECT pg_try_advisory_xact_lock(7)"));
            assertEquals("f", value(b, "SELECT pg_try_advisory_xact_lock(7)"));
            a.commit();
            assertEquals("t", value(b, "SELECT pg_try_advisory_xact_lock(7)"), "outside a transaction: for the statement");
            assertEquals("t", value(a, "SELECT pg_try_advisory_xact_lock(7)"), "b's lasted its statement only");
            a.rollback();
            a.setAutoCommit(true);

            // the session's close releases its locks
            Connection c = cluster.connect();
            assertEquals("t", value(c, "SELECT pg_try_advisory_lock(1, 2)"));
            assertEquals("f", value(a, "SELECT pg_try_advisory_lock(1, 2)"));
            c.close(); // the controller ends the session once it reads the close, as a server notices a client leave
            assertEquals("t", eventually(a, "SELECT pg_try_advisory_lock(1, 2)", "true"));
        }
    }

    @Test
    void mariadbUserLocksHaveOneHolderAtATime() throws Exception {
        cluster = new EngineCluster(dir, Kind.MARIADB, 2, "phalanx_advisory_my", "");
        try (Connection a = cluster.connect(); Connection b = cluster.connect()) {
            assertEquals("1", value(a, "SELECT GET_LOCK(?, ?)", "migration", 0));
            assertEquals("0", value(b, "SELECT GET_LOCK('migration', 0)"));
            assertEquals("0", value(b, "SELECT IS_FREE_LOCK('migration')"));
            assertEquals("0", value(b, "SELECT RELEASE_LOCK('migration')"), "held by another");
            assertNull(value(b, "SELECT RELEASE_LOCK('nobody')"), "held by no one");
            assertEquals("1", value(a, "SELECT RELEASE_LOCK('migration')"));
            assertEquals("1", value(b, "SELECT IS_FREE_LOCK('migration')"));
            try (Statement s = a.createStatement(); ResultSet rs = s.executeQuery("SELECT GET_LOCK('aliased', 0) AS got")) {
                rs.next();
                assertEquals(1, rs.getInt("got"), "the alias labels the answer");
            }
            assertEquals("1", value(a, "SELECT RELEASE_LOCK('aliased')"));
            // anywhere else a call would take its lock on a pooled backend connection, for no session
            for (String elsewhere : List.of("SELECT GET_LOCK('x', 1), GET_LOCK('y', 1)",
                    "SELECT COALESCE(GET_LOCK('x', 0), -1)", "SELECT IS_USED_LOCK('x') IS NOT NULL")) {
                SQLException refused = assertThrows(SQLException.class, () -> value(a, elsewhere), elsewhere);
                assertEquals("0A000", refused.getSQLState(), elsewhere);
            }
            assertEquals("1", value(b, "SELECT GET_LOCK('x', 0)"), "no lock left behind");
            assertEquals("1", value(b, "SELECT RELEASE_LOCK('x')"));

            // many sessions contend: never two holders at once
            AtomicInteger holders = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            CompletableFuture<?>[] clients = new CompletableFuture<?>[4];
            for (int n = 0; n < clients.length; n++) {
                clients[n] = CompletableFuture.runAsync(() -> {
                    try (Connection c = cluster.connect()) {
                        for (int i = 0; i < 10; i++) {
                            assertEquals("1", value(c, "SELECT GET_LOCK('counter', 20)"));
                            if (holders.incrementAndGet() > 1) {
                                overlaps.incrementAndGet();
                            }
                            Thread.sleep(2);
                            holders.decrementAndGet();
                            assertEquals("1", value(c, "SELECT RELEASE_LOCK('counter')"));
                        }
                    } catch (Exception e) {
                        throw new java.util.concurrent.CompletionException(e);
                    }
                });
            }
            CompletableFuture.allOf(clients).get(60, TimeUnit.SECONDS);
            assertEquals(0, overlaps.get(), "two sessions held the lock at once");

            Connection c = cluster.connect();
            assertEquals("1", value(c, "SELECT GET_LOCK('closing', 0)"));
            assertTrue(value(a, "SELECT IS_USED_LOCK('closing')") != null);
            c.close();
            assertEquals("1", eventually(a, "SELECT IS_FREE_LOCK('closing')", "1"), "released when its session closed");
        }
    }

    /** The value once it is {@code expected}, or the last one read after 10 s. */
    private static String eventually(Connection c, String sql, String expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String v = value(c, sql);
        while (!expected.equals(v) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            v = value(c, sql);
        }
        return v;
    }

    private static String quietly(Connection c, String sql) {
        try {
            return value(c, sql);
        } catch (SQLException e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }

    private static String value(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), sql);
                return rs.getString(1);
            }
        }
    }
}
