package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.BalancingPolicy;
import org.phalanx.requestmanager.config.LockGranularity;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.testing.Sessions.update;

import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testing.SqliteCluster;

/**
 * maxPending through sessions over real SQLite files: an auto-commit read waits at the
 * controller while the backend is full and goes once a request there ends; a transaction is
 * never held back; the wait respects the query timeout.
 */
class ReadAdmissionSessionTest {
    @TempDir
    Path dir;
    private RequestManager rm;
    private final ExecutorService clients = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        clients.shutdownNow();
        if (rm != null) {
            rm.close();
        }
    }

    /** One backend at most one request in progress. */
    private void start() throws SQLException {
        SqliteCluster cluster = new SqliteCluster(dir, "a");
        List<BackendConfig> configs = new ArrayList<>();
        for (BackendConfig b : cluster.backendConfigs()) {
            configs.add(b.toBuilder().maxPending(1).build());
        }
        rm = new RequestManager("admission", RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .balancing(BalancingPolicy.LEAST_PENDING).lockGranularity(LockGranularity.DATABASE)
                .lockTimeout(Duration.ofSeconds(10)).analysisCacheSize(100).build(),
                configs);
        rm.start();
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
            for (int i = 1; i <= 5; i++) {
                update(s, "INSERT INTO t (id, v) VALUES (?, ?)", i, i * 10);
            }
        }
    }

    /** A read asking rows in batches: it keeps the backend's count until its rows are closed. */
    private static Result streamedRead(Session s) throws SQLException {
        return s.execute(new Request("SELECT id, v FROM t ORDER BY id", List.of(), Request.Expect.ROWS, null, 0, 1, 0));
    }

    private static long sum(Session s, int timeoutSeconds) throws SQLException {
        try (Result r = s.execute(new Request("SELECT SUM(v) FROM t", List.of(), Request.Expect.ROWS, null, 0, 0,
                timeoutSeconds))) {
            if (r instanceof Result.Rows rows) {
                rows.resultSet().next();
                return rows.resultSet().getLong(1);
            }
            return ((Number) ((Result.Cached) r).rows().get(0)[0]).longValue();
        }
    }

    private void awaitWaiting(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (rm.readsWaitingForRoom() != n && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertEquals(n, rm.readsWaitingForRoom());
    }

    @Test
    void aReadWaitsWhileTheBackendIsFullAndATransactionDoesNot() throws Exception {
        start();
        try (Session holder = rm.openSession("u"); Session reader = rm.openSession("u");
             Session writer = rm.openSession("u")) {
            Result open = streamedRead(holder);
            CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> {
                try {
                    return sum(reader, 0);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, clients);
            awaitWaiting(1);
            assertFalse(read.isDone(), "the backend has its maxPending request in progress");

            writer.setAutoCommit(false);
            update(writer, "UPDATE t SET v = v + 1 WHERE id = 1");
            assertEquals(10L * 15 + 1, readInTransaction(writer), "a read inside a transaction is not held back");
            writer.commit();
            assertFalse(read.isDone());

            open.close();
            assertEquals(10L * 15 + 1, read.get(10, TimeUnit.SECONDS), "it went once the open read ended");
            assertEquals(0, rm.readsWaitingForRoom());
        }
    }

    private static long readInTransaction(Session s) throws SQLException {
        return sum(s, 0);
    }

    @Test
    void aReadWaitingLongerThanItsQueryTimeoutFailsWithHyt00AndChangesNothing() throws Exception {
        start();
        try (Session holder = rm.openSession("u"); Session reader = rm.openSession("u")) {
            try (Result open = streamedRead(holder)) {
                SQLTimeoutException e = assertThrows(SQLTimeoutException.class, () -> sum(reader, 1));
                assertEquals("HYT00", e.getSQLState());
            }
            assertEquals(150, sum(reader, 1), "the backend takes reads again once the open one is closed");
            assertTrue(rm.backends().get(0).isEnabled(), "waiting is no failure of the backend");
        }
    }
}
