package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.ReadRouting;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.phalanx.testing.Sessions.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.testkit.jdbc.FaultyDriver;
import org.phalanx.testing.SqliteCluster;

/** The request manager on its own over three real SQLite files. */
class ReplicationTest {
    @TempDir
    Path dir;
    private RequestManager rm;

    private RequestManager start(WaitPolicy policy, SqliteCluster cluster) throws SQLException {
        return start(policy, ReadRouting.CONFLICT_AWARE, cluster);
    }

    private RequestManager start(WaitPolicy policy, ReadRouting routing, SqliteCluster cluster) throws SQLException {
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(policy).readRouting(routing)
                .lockTimeout(Duration.ofSeconds(5)).analysisCacheSize(1000).build();
        rm = new RequestManager("test", config, cluster.backendConfigs());
        rm.start();
        return rm;
    }

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
    }

    /** Waits until the backend has nothing queued or running. */
    private void awaitIdle(String backend) throws InterruptedException {
        while (rm.backends().stream().anyMatch(b -> b.name().equals(backend) && b.pending() > 0)) {
            Thread.sleep(10);
        }
    }

    private static long count(Session s, String sql) throws SQLException {
        try (Result r = s.execute(Request.of(sql))) {
            ResultSet rs = ((Result.Rows) r).resultSet();
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void writesReachEveryBackendAndReadsAreSpread() throws Exception {
        SqliteCluster cluster = new SqliteCluster(dir, "a", "b", "c");
        start(WaitPolicy.ALL, cluster);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, ts TEXT)");
            for (int i = 0; i < 20; i++) {
                update(s, "INSERT INTO t (id, v, ts) VALUES (?, ?, CURRENT_TIMESTAMP)", i, "v" + i);
            }
            s.setAutoCommit(false);
            update(s, "UPDATE t SET v = 'changed' WHERE id < 5");
            update(s, "DELETE FROM t WHERE id = 19");
            s.commit();
            s.setAutoCommit(true);
            for (String b : cluster.names()) {
                FaultyDriver.fault(b).executions.set(0);
            }
            for (int i = 0; i < 30; i++) {
                assertEquals(19, count(s, "SELECT COUNT(*) FROM t"));
            }
        }
        for (String b : cluster.names()) {
            assertEquals(10, FaultyDriver.fault(b).executions.get(), "round robin spreads reads to " + b);
        }
        String expected = cluster.checksum("a", "t", "id");
        assertEquals(expected, cluster.checksum("b", "t", "id"));
        assertEquals(expected, cluster.checksum("c", "t", "id"));
    }

    @Test
    void rolledBackTransactionsLeaveNoTrace() throws Exception {
        SqliteCluster cluster = new SqliteCluster(dir, "a", "b");
        start(WaitPolicy.FIRST, cluster);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            s.setAutoCommit(false);
            update(s, "INSERT INTO t VALUES (1)");
            assertEquals(1, count(s, "SELECT COUNT(*) FROM t"), "a transaction reads its own writes");
            s.rollback();
            assertEquals(0, count(s, "SELECT COUNT(*) FROM t"));
            s.setAutoCommit(true);
            update(s, "BEGIN"); // SQL demarcation works too
            update(s, "INSERT INTO t VALUES (2)");
            update(s, "ROLLBACK");
            assertEquals(0, count(s, "SELECT COUNT(*) FROM t"));
        }
        rm.close(); // under FIRST the second backend may still be running the queue
        rm = null;
        assertEquals("0:" + cluster.checksum("a", "t", "id").split(":")[1], cluster.checksum("b", "t", "id"));
    }

    @Test
    void readYourWritesUnderFirstWithASlowBackend() throws Exception {
        SqliteCluster cluster = new SqliteCluster(dir, "fast", "slow");
        start(WaitPolicy.FIRST, cluster);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
            FaultyDriver.fault("slow").delayMillis = 150;
            for (int i = 0; i < 5; i++) {
                update(s, "INSERT INTO t VALUES (?, 0)", i);
                assertEquals(i + 1, count(s, "SELECT COUNT(*) FROM t"), "auto-commit read after own write");
            }
            s.setAutoCommit(false);
            for (int i = 0; i < 5; i++) {
                update(s, "UPDATE t SET v = v + 1");
                assertEquals(5L * (i + 1), count(s, "SELECT SUM(v) FROM t"), "read inside the transaction");
            }
            s.commit();
            assertEquals(25, count(s, "SELECT SUM(v) FROM t"));
        }
        rm.close();
        rm = null;
        assertEquals(cluster.checksum("fast", "t", "id"), cluster.checksum("slow", "t", "id"));
    }

    /**
     * A transaction whose end reaches a backend only after the backend left service (its commit
     * was queued behind a slow statement, or ordered once it was out) releases that backend's
     * pooled connection rolled back: an open SQLite write transaction there would refuse the
     * restore that rebuilds it ("database is locked").
     */
    @Test
    void aTransactionEndingOnADisabledBackendLeavesNoOpenTransactionThere() throws Exception {
        SqliteCluster cluster = new SqliteCluster(dir, "a", "b");
        start(WaitPolicy.FIRST, cluster);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            for (boolean commitBeforeDisable : new boolean[] {true, false}) {
                rm.enableBackend("b");
                FaultyDriver.fault("b").delayMillis = 600;
                s.setAutoCommit(false);
                update(s, "INSERT INTO t VALUES (?)", commitBeforeDisable ? 1 : 2);
                if (commitBeforeDisable) {
                    s.commit(); // answered by a; queued on b behind the slow INSERT
                    rm.disableBackend("b");
                } else {
                    rm.disableBackend("b");
                    s.commit();
                }
                s.setAutoCommit(true);
                awaitIdle("b");
                FaultyDriver.fault("b").delayMillis = 0;
                try (java.sql.Connection direct = cluster.direct("b"); java.sql.Statement st = direct.createStatement()) {
                    st.execute("PRAGMA busy_timeout = 3000");
                    st.execute("BEGIN IMMEDIATE"); // SQLITE_BUSY while a branch keeps b's write lock
                    st.execute("ROLLBACK");
                }
            }
        }
    }

    /**
     * A client that writes over one connection and reads over another (another controller using
     * this one as a backend does, through its pool) reads its writes: once a write is
     * acknowledged, a backend still running it serves no read that could miss it, even when no
     * backend is caught up with everything queued.
     */
    /**
     * Conflict-aware routing sends a read that must see an acknowledged write to the backend that
     * has it, never to one still applying it; routing by load sends it where the balancer says
     * (round robin: every other read to the slow backend) and waits there. Both read the write.
     */
    @ParameterizedTest
    @EnumSource(ReadRouting.class)
    void aReadThatMustSeeAWriteGoesWhereItIsDoneUnlessRoutedByLoad(ReadRouting routing) throws Exception {
        SqliteCluster cluster = new SqliteCluster(dir, "fast", "slow");
        start(WaitPolicy.FIRST, routing, cluster);
        try (Session writer = rm.openSession("u"); Session reader = rm.openSession("u")) {
            update(writer, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            awaitIdle("slow");
            long before = readsOn("slow");
            FaultyDriver.fault("slow").delayMillis = 500;
            for (int i = 1; i <= 4; i++) {
                update(writer, "INSERT INTO t VALUES (?)", i); // answered once "fast" has it
                assertEquals(i, count(reader, "SELECT COUNT(*) FROM t"), "read " + i);
            }
            long onSlow = readsOn("slow") - before;
            if (routing == ReadRouting.CONFLICT_AWARE) {
                assertEquals(0, onSlow, "reads sent to the backend still applying the write");
            } else {
                assertEquals(2, onSlow, "round robin by load alone: every other read on the slow backend");
            }
        }
    }

    private long readsOn(String backend) {
        return rm.backends().stream().filter(b -> b.name().equals(backend)).findFirst().orElseThrow()
                .statistics().snapshot().reads();
    }

    @Test
    void aReadOverAnotherSessionSeesWritesAlreadyAcknowledged() throws Exception {
        SqliteCluster cluster = new SqliteCluster(dir, "fast", "slow");
        start(WaitPolicy.FIRST, cluster);
        try (Session writer = rm.openSession("u"); Session other = rm.openSession("u");
             Session reader = rm.openSession("u")) {
            update(writer, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(writer, "CREATE TABLE u (id INTEGER PRIMARY KEY)");
            FaultyDriver.fault("fast").delayMillis = 200;
            FaultyDriver.fault("slow").delayMillis = 800;
            for (int i = 1; i <= 4; i++) {
                update(writer, "INSERT INTO t VALUES (?)", i); // answered once "fast" has it
                int id = i;
                Thread busy = new Thread(() -> {
                    try {
                        update(other, "INSERT INTO u VALUES (?)", id); // keeps "fast" busy, not caught up
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                busy.start();
                Thread.sleep(50);
                assertEquals(i, count(reader, "SELECT COUNT(*) FROM t"), "read " + i + " over another session");
                busy.join();
            }
        }
        rm.close();
        rm = null;
        assertEquals(cluster.checksum("fast", "t", "id"), cluster.checksum("slow", "t", "id"));
    }

    @Test
    void aBrokenBackendIsDisabledAndReadsAreRetried() throws Exception {
        SqliteCluster cluster = new SqliteCluster(dir, "a", "b", "c");
        start(WaitPolicy.ALL, cluster);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO t VALUES (1)");
            FaultyDriver.fault("b").broken = true;
            for (int i = 0; i < 6; i++) {
                assertEquals(1, count(s, "SELECT COUNT(*) FROM t"));
            }
            update(s, "INSERT INTO t VALUES (2)");
            assertEquals(BackendState.DISABLED, rm.backendStates().get("b"));
            assertEquals(BackendState.ENABLED, rm.backendStates().get("a"));
            assertEquals(BackendState.ENABLED, rm.backendStates().get("c"));
        }
        assertEquals(cluster.checksum("a", "t", "id"), cluster.checksum("c", "t", "id"));
    }

    @Test
    void statementErrorsEverywhereDisableNobody() throws Exception {
        SqliteCluster cluster = new SqliteCluster(dir, "a", "b");
        start(WaitPolicy.FIRST, cluster);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO t VALUES (1)");
            SQLException dup = assertThrows(SQLException.class, () -> update(s, "INSERT INTO t VALUES (1)"));
            assertTrue(dup.getMessage().contains("UNIQUE"), dup.getMessage());
            SQLException syntax = assertThrows(SQLException.class, () -> count(s, "SELEKT nothing"));
            assertTrue(syntax.getMessage().contains("syntax error"), syntax.getMessage());
            assertThrows(SQLException.class, () -> count(s, "SELECT nope FROM t"));
            assertEquals(1, count(s, "SELECT COUNT(*) FROM t"));
        }
        assertTrue(rm.backendStates().values().stream().allMatch(st -> st == BackendState.ENABLED));
    }

    @Test
    void readOnlySessionsRefuseWrites() throws Exception {
        start(WaitPolicy.FIRST, new SqliteCluster(dir, "a"));
        try (Session s = rm.openSession("u")) {
            s.setReadOnly(true);
            SQLException e = assertThrows(SQLException.class, () -> update(s, "CREATE TABLE t (id INT)"));
            assertEquals("25006", e.getSQLState());
        }
    }

    @Test
    void generatedKeysComeBack() throws Exception {
        start(WaitPolicy.FIRST, new SqliteCluster(dir, "a", "b"));
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)");
            Request insert = new Request("INSERT INTO t (v) VALUES (?)", List.of("x"), Request.Expect.UPDATE_COUNT,
                    List.of(), 0, 0, 0);
            try (Result r = s.execute(insert)) {
                Result.UpdateCount u = assertInstanceOf(Result.UpdateCount.class, r);
                assertEquals(1, u.generatedKeys().rows().size());
                assertEquals(1L, ((Number) u.generatedKeys().rows().get(0)[0]).longValue());
            }
        }
    }

    @Test
    void withNoBackendLeftClientsGetAClearError() throws Exception {
        SqliteCluster cluster = new SqliteCluster(dir, "a", "b");
        start(WaitPolicy.FIRST, cluster);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            FaultyDriver.fault("a").broken = true;
            FaultyDriver.fault("b").broken = true;
            SQLException read = assertThrows(SQLException.class, () -> count(s, "SELECT COUNT(*) FROM t"));
            assertEquals("08006", read.getSQLState());
            assertTrue(read.getMessage().contains("no enabled backend"), read.getMessage());
            SQLException write = assertThrows(SQLException.class, () -> update(s, "INSERT INTO t VALUES (1)"));
            assertEquals("08006", write.getSQLState());
        }
    }

    @Test
    void waitingTooLongForAConflictingTransactionIs40001AndReadsAreNeverBlocked() throws Exception {
        SqliteCluster cluster = new SqliteCluster(dir, "a", "b");
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(WaitPolicy.FIRST)
                .lockTimeout(Duration.ofMillis(300)).analysisCacheSize(1000).build();
        rm = new RequestManager("test", config, cluster.backendConfigs());
        rm.start();
        try (Session holder = rm.openSession("u"); Session waiter = rm.openSession("u");
             Session reader = rm.openSession("u")) {
            update(holder, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(holder, "CREATE TABLE other (id INTEGER PRIMARY KEY)");
            holder.setAutoCommit(false);
            update(holder, "INSERT INTO t VALUES (1)");
            // at READ COMMITTED its read takes no lock (SERIALIZABLE, SQLite's default, would wait too)
            waiter.setTransactionIsolation(java.sql.Connection.TRANSACTION_READ_COMMITTED);
            waiter.setAutoCommit(false);
            assertEquals(0, count(waiter, "SELECT COUNT(*) FROM other"));
            // SQLite allows one writer: the waiter's write waits for the holder, then gives up
            SQLException e = assertThrows(SQLException.class, () -> update(waiter, "INSERT INTO other VALUES (7)"));
            assertEquals("40001", e.getSQLState(), e.getMessage());
            assertEquals(0, count(reader, "SELECT COUNT(*) FROM t"), "reads run beside a writing transaction");
            holder.commit();
            update(waiter, "INSERT INTO other VALUES (8)");
            waiter.commit();
            assertEquals(1, count(reader, "SELECT COUNT(*) FROM t"));
            assertEquals(8, count(reader, "SELECT SUM(id) FROM other"), "the refused write was rolled back");
        }
    }
}
