package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.testing.Sessions.update;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.BackendView;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.HangLimits;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.testing.SqliteCluster;
import org.phalanx.testkit.jdbc.FaultyDriver;

/**
 * Hung and slow backends are taken out of service by their {@link HangLimits}, whoever waits for
 * them is answered, and they come back identical by the usual replay. The hang is the fault
 * injector's: new connections and executions wait, as on a stopped server (the process-level
 * test with SIGSTOP of a real MariaDB server is HungBackendIT in the controller module).
 */
class HungBackendTest {
    private static final List<String> NAMES = List.of("b1", "b2", "b3");

    @TempDir
    Path dir;
    private RequestManager rm;
    private SqliteCluster cluster;

    private void start(WaitPolicy policy, HangLimits limits) throws SQLException {
        cluster = new SqliteCluster(dir, NAMES.toArray(new String[0]));
        List<BackendConfig> configs = new ArrayList<>();
        for (BackendConfig c : cluster.backendConfigs()) {
            configs.add(c.toBuilder().limits(limits).build());
        }
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(policy)
                .lockTimeout(Duration.ofSeconds(5)).analysisCacheSize(1000)
                .recovery(new RecoveryConfig(new FileRecoveryLog(dir.resolve("log")), true)).build();
        rm = new RequestManager("hung", config, configs);
        rm.start();
    }

    @AfterEach
    void stop() {
        NAMES.forEach(n -> FaultyDriver.fault(n).reset());
        if (rm != null) {
            rm.close();
        }
    }

    private BackendView backend(String name) {
        return rm.backends().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
    }

    private void awaitState(String name, BackendState state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (backend(name).state() != state) {
            assertTrue(System.nanoTime() < deadline, name + " is still " + backend(name).state());
            Thread.sleep(10);
        }
    }

    /** Enables the backend, once what was still running there when it left service has ended. */
    private void enableOnceIdle(String name) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                rm.enableBackend(name);
                return;
            } catch (SQLException e) {
                if (!SqlState.OBJECT_IN_USE.code().equals(e.getSQLState()) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }

    private void assertIdentical() throws SQLException {
        String expected = cluster.checksum("b1", "t", "id");
        for (String n : NAMES) {
            if (!expected.equals(cluster.checksum(n, "t", "id"))) {
                StringBuilder rows = new StringBuilder();
                for (String b : NAMES) {
                    rows.append(b).append(": ").append(values(b)).append("; ");
                }
                assertEquals(expected, cluster.checksum(n, "t", "id"), n + " differs from b1 (v by id: " + rows + ")");
            }
        }
    }

    /** The table's v column by id, to tell from a failure which backend missed or repeated what. */
    private String values(String backend) throws SQLException {
        try (java.sql.Connection c = cluster.direct(backend); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT group_concat(v) FROM (SELECT v FROM t ORDER BY id)")) {
            return rs.next() ? rs.getString(1) : "";
        }
    }

    private void createTable(Session s) throws SQLException {
        update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
        for (int i = 0; i < 10; i++) {
            update(s, "INSERT INTO t VALUES (?, 0)", i);
        }
    }

    @Test
    void aHungBackendIsDisabledAndWhoeverWaitsForItIsAnswered() throws Exception {
        start(WaitPolicy.ALL, new HangLimits(Duration.ofSeconds(1), 0, 0));
        try (Session s = rm.openSession("u")) {
            createTable(s);
            FaultyDriver.fault("b3").hang();
            // under 'all' the client waits for b3 too: it is answered once b3 is found hung
            CompletableFuture<Void> write = CompletableFuture.runAsync(() -> {
                try {
                    assertEquals(1, update(s, "UPDATE t SET v = v + 1 WHERE id = 1"));
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            write.get(60, TimeUnit.SECONDS);
            assertEquals(BackendState.DISABLED, backend("b3").state());
            assertTrue(backend("b3").disabledReason().contains("hung"), backend("b3").disabledReason());
            assertEquals(0, backend("b3").queuedWrites(), "nothing left queued for it");
            s.setAutoCommit(false);
            update(s, "UPDATE t SET v = v + 10 WHERE id = 2");
            s.commit();
            s.setAutoCommit(true);
            update(s, "INSERT INTO t VALUES (100, 1)");

            FaultyDriver.fault("b3").resume();
            enableOnceIdle("b3");
            assertEquals(BackendState.ENABLED, backend("b3").state());
            update(s, "UPDATE t SET v = v + 1 WHERE id = 3");
        }
        rm.close();
        rm = null;
        assertIdentical();
    }

    /**
     * Under 'all' an auto-commit write runs on the client's own thread on the first backend (it
     * waits for it anyway): if that backend hangs, its connection is aborted when it is found hung,
     * so the client is answered all the same.
     */
    @Test
    void aHungBackendRunningTheWriteOnTheClientsThreadStillLetsItBeAnswered() throws Exception {
        start(WaitPolicy.ALL, new HangLimits(Duration.ofSeconds(1), 0, 0));
        try (Session s = rm.openSession("u")) {
            createTable(s);
            FaultyDriver.fault("b1").hang();
            CompletableFuture<Long> write = CompletableFuture.supplyAsync(() -> {
                try {
                    return update(s, "UPDATE t SET v = v + 1 WHERE id = 1");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            try {
                assertEquals(1L, write.get(60, TimeUnit.SECONDS));
            } finally {
                FaultyDriver.fault("b1").resume(); // a write still stuck holds the session: let the test end
            }
            assertEquals(BackendState.DISABLED, backend("b1").state());
            assertTrue(backend("b1").disabledReason().contains("hung"), backend("b1").disabledReason());
            enableOnceIdle("b1");
            update(s, "UPDATE t SET v = v + 1 WHERE id = 2");
        }
        rm.close();
        rm = null;
        assertIdentical();
    }

    /**
     * Inside a transaction too, one backend's copy of each write and of the commit runs on the
     * client's own thread (the least busy: b1 here); if that backend hangs in the write or in the
     * commit, its connection is aborted when it is found hung and the transaction commits on the others.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aHungBackendRunningATransactionOnTheClientsThreadStillLetsItCommit(boolean hangInCommit) throws Exception {
        start(WaitPolicy.ALL, new HangLimits(Duration.ofSeconds(1), 0, 0));
        try (Session s = rm.openSession("u")) {
            createTable(s);
            s.setAutoCommit(false);
            update(s, "UPDATE t SET v = v + 1 WHERE id = 1"); // its branches are open on every backend
            if (!hangInCommit) {
                FaultyDriver.fault("b1").hang();
            }
            CompletableFuture<Void> rest = CompletableFuture.runAsync(() -> {
                try {
                    assertEquals(1, update(s, "UPDATE t SET v = v + 1 WHERE id = 2"));
                    if (hangInCommit) {
                        FaultyDriver.fault("b1").hang();
                    }
                    s.commit();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            try {
                rest.get(60, TimeUnit.SECONDS);
            } finally {
                FaultyDriver.fault("b1").resume();
            }
            assertEquals(BackendState.DISABLED, backend("b1").state());
            assertTrue(backend("b1").disabledReason().contains("hung"), backend("b1").disabledReason());
            s.setAutoCommit(true);
            enableOnceIdle("b1");
            update(s, "UPDATE t SET v = v + 1 WHERE id = 3");
        }
        rm.close();
        rm = null;
        assertIdentical();
        assertEquals("0,1,1,1,0", values("b2").substring(0, 9), "the transaction committed, then the write after it");
    }

    @Test
    void aBackendPastItsQueueBoundIsDisabledAndItsQueueFreed() throws Exception {
        start(WaitPolicy.FIRST, new HangLimits(Duration.ZERO, 20, 0));
        try (Session s = rm.openSession("u")) {
            createTable(s);
            FaultyDriver.fault("b3").delayMillis = 300; // far slower than the others
            for (int i = 0; i < 60; i++) {
                update(s, "UPDATE t SET v = v + 1 WHERE id = ?", i % 10);
            }
            awaitState("b3", BackendState.DISABLED);
            assertTrue(backend("b3").disabledReason().contains("maxQueuedWrites"), backend("b3").disabledReason());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (backend("b3").queuedWrites() > 0) {
                assertTrue(System.nanoTime() < deadline, backend("b3").queuedWrites() + " still queued");
                Thread.sleep(10);
            }
            FaultyDriver.fault("b3").delayMillis = 0;
            enableOnceIdle("b3");
            update(s, "UPDATE t SET v = v + 1 WHERE id = 3");
            // on a loaded machine b2 too may fall 20 writes behind the first and be disabled the same way
            for (String name : NAMES) {
                if (backend(name).state() == BackendState.DISABLED) {
                    enableOnceIdle(name);
                }
            }
        }
        rm.close();
        rm = null;
        assertIdentical();
    }

    @Test
    void aBackendWhoseConnectionsBrokeIsCaughtUpByReplayWithoutADump() throws Exception {
        start(WaitPolicy.ALL, HangLimits.DEFAULTS);
        try (Session s = rm.openSession("u")) {
            createTable(s);
            FaultyDriver.fault("b3").broken = true;
            update(s, "UPDATE t SET v = v + 1 WHERE id = 1");
            assertEquals(BackendState.DISABLED, backend("b3").state());
            update(s, "UPDATE t SET v = v + 1 WHERE id = 2");
            FaultyDriver.fault("b3").broken = false;
            rm.enableBackend("b3"); // its record says what it lacks: no dump needed
            assertEquals(BackendState.ENABLED, backend("b3").state());
        }
        rm.close();
        rm = null;
        assertIdentical();
    }

    @Test
    void aLongStatementOnABackendThatAnswersIsLeftToRun() throws Exception {
        start(WaitPolicy.ALL, new HangLimits(Duration.ofMillis(400), 0, 0));
        try (Session s = rm.openSession("u")) {
            createTable(s);
            FaultyDriver.fault("b3").delayMillis = 1500; // each statement: over three times the limit
            assertEquals(1, update(s, "UPDATE t SET v = v + 1 WHERE id = 1"));
            assertEquals(BackendState.ENABLED, backend("b3").state(), backend("b3").disabledReason());
        }
        rm.close();
        rm = null;
        assertIdentical();
    }
}
