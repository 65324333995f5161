package org.phalanx.requestmanager.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.testing.Sessions.update;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.requestmanager.RequestManager;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.testing.SqliteCluster;

/** Online verification over real SQLite replicas behind a request manager. */
class ReplicaVerificationTest {
    @TempDir
    Path dir;
    private RequestManager rm;
    private SqliteCluster cluster;

    private void start(boolean withLog, String... names) throws SQLException {
        cluster = new SqliteCluster(dir, names);
        RequestManagerConfig.Builder config = RequestManagerConfig.builder().waitPolicy(WaitPolicy.FIRST)
                .lockTimeout(Duration.ofSeconds(30)).analysisCacheSize(1000);
        if (withLog) {
            config.recovery(new RecoveryConfig(new FileRecoveryLog(dir.resolve("log")), true));
        }
        rm = new RequestManager("v", config.build(), cluster.backendConfigs());
        rm.start();
    }

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
    }

    /** {@code rows} items through the controller, in one transaction. */
    private void items(int rows) throws SQLException {
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL, price NUMERIC(10,2),"
                    + " available BOOLEAN, note TEXT)");
            s.setAutoCommit(false);
            for (int i = 1; i <= rows; i++) {
                java.math.BigDecimal price = new java.math.BigDecimal(i).multiply(new java.math.BigDecimal("1.25"));
                if (i % 3 == 0) {
                    update(s, "INSERT INTO items VALUES (?, ?, ?, ?, NULL)", i, "item " + i, price, i % 2 == 0);
                } else {
                    update(s, "INSERT INTO items VALUES (?, ?, ?, ?, ?)", i, "item " + i, price, i % 2 == 0, "n" + i);
                }
            }
            s.commit();
        }
        awaitIdle();
    }

    private void awaitIdle() {
        while (rm.pendingRequests() > 0) {
            Thread.onSpinWait();
        }
    }

    /** Changes a replica behind the controller's back. */
    private void direct(String backend, String... sql) throws SQLException {
        try (Connection c = cluster.direct(backend); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.executeUpdate(q);
            }
        }
    }

    private static TableReport table(VerificationReport r, String name) {
        return r.tables().stream().filter(t -> t.table().equals(name)).findFirst().orElseThrow();
    }

    private static Set<String> rows(TableReport t) {
        return t.rows().stream().map(d -> d.key() + " " + d.kind() + " " + d.backends() + (d.decided() ? "" : " undecided"))
                .collect(Collectors.toSet());
    }

    private static VerificationRequest request(long rowsPerSecond, int chunkRows, OnDifference action) {
        return new VerificationRequest(List.of(), rowsPerSecond, chunkRows, action, null);
    }

    @Test
    void theAlteredReplicaIsOutvotedRowByRowWhileWritesGoOn() throws Exception {
        start(false, "b1", "b2", "b3");
        items(3000);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE events (id INTEGER PRIMARY KEY, item INTEGER, what TEXT)");
        }
        direct("b3", "UPDATE items SET name = 'tampered' WHERE id = 1234", "DELETE FROM items WHERE id = 2500",
                "INSERT INTO items VALUES (3001, 'intruder', 1.00, 0, NULL)");

        // a workload through the controller on both tables, all the time the verification runs
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong writes = new AtomicLong();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread workload = new Thread(() -> {
            try (Session s = rm.openSession("w")) {
                int n = 10_000;
                while (!stop.get()) {
                    n++;
                    update(s, "INSERT INTO events VALUES (?, ?, 'sold')", n, n % 1000);
                    update(s, "UPDATE items SET price = price + 1, note = ? WHERE id = ?", "w" + n, 1 + n % 1000);
                    update(s, "INSERT INTO items VALUES (?, 'new', 2.50, 1, NULL)", n);
                    update(s, "DELETE FROM items WHERE id = ?", n - 5);
                    writes.addAndGet(4);
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        workload.start();
        while (writes.get() < 40) {
            Thread.sleep(5);
        }
        long before = writes.get();
        // throttled so that the verification spans many of the workload's writes, and SQLite's snapshots are
        // renewed on the way (RenewingPoint): chunks compared at later points must not report the workload either
        VerificationReport report = rm.verify(request(1500, 250, OnDifference.REPORT), null);
        long during = writes.get() - before;
        stop.set(true);
        workload.join();
        if (failed.get() != null) {
            throw new AssertionError("the workload failed", failed.get());
        }
        assertTrue(during > 0, "writes went on during the verification");

        TableReport items = table(report, "items");
        assertEquals(Set.of("id=1234 CHANGED [b3]", "id=2500 MISSING [b3]", "id=3001 EXTRA [b3]"), rows(items),
                "exactly the altered rows, and none of the workload's");
        assertEquals(3, items.differingRows());
        assertEquals(List.of("b3"), items.minority());
        assertEquals(List.of("b1", "b2", "b3"), items.backends());
        assertTrue(items.chunks() > 10, "chunked: " + items.chunks());
        assertTrue(items.notes().stream().anyMatch(n -> n.contains("successive consistent points")), items.notes().toString());
        assertTrue(table(report, "events").identical(), table(report, "events").toString());
        assertEquals(List.of("b3"), report.minority());
        assertEquals(3, report.differences());
        assertEquals(report, rm.lastVerification().orElseThrow());
        assertTrue(rm.verificationProgress().isEmpty());
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b3"), "report only");
    }

    @Test
    void withTwoReplicasBothAreNamed() throws Exception {
        start(false, "b1", "b2");
        items(200);
        direct("b2", "UPDATE items SET note = 'x' WHERE id = 7");
        TableReport t = table(rm.verify(request(0, 50, OnDifference.DISABLE), null), "items");
        assertEquals(Set.of("id=7 CHANGED [b1, b2] undecided"), rows(t));
        assertTrue(t.minority().isEmpty());
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b2"), "no majority: nothing is disabled");
    }

    @Test
    void nullIsNotTheEmptyStringAndDecimalsCompareByTheirScale() throws Exception {
        start(false, "b1", "b2", "b3");
        items(30);
        direct("b1", "UPDATE items SET note = '' WHERE id = 3"); // NULL elsewhere
        direct("b2", "UPDATE items SET price = '2.5' WHERE id = 2"); // the same value as 2.50, written as text
        TableReport t = table(rm.verify(request(0, 1000, OnDifference.REPORT), null), "items");
        assertEquals(Set.of("id=3 CHANGED [b1]"), rows(t));
    }

    @Test
    void aTableWithoutPrimaryKeyIsComparedWhole() throws Exception {
        start(false, "b1", "b2", "b3");
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE log (at INTEGER, what TEXT)");
            for (int i = 0; i < 50; i++) {
                update(s, "INSERT INTO log VALUES (?, ?)", i, "e" + i);
            }
        }
        awaitIdle();
        direct("b2", "UPDATE log SET what = 'x' WHERE at = 10");
        TableReport t = table(rm.verify(request(0, 10, OnDifference.REPORT), null), "log");
        assertFalse(t.keyed());
        assertEquals(1, t.ranges().size());
        assertEquals("whole table", t.ranges().get(0).range());
        assertEquals(List.of("b2"), t.minority());
        assertTrue(t.rows().isEmpty());
    }

    @Test
    void disableTakesTheOutvotedReplicaOutOfService() throws Exception {
        start(false, "b1", "b2", "b3");
        items(100);
        direct("b1", "DELETE FROM items WHERE id = 50");
        VerificationReport r = rm.verify(request(0, 30, OnDifference.DISABLE), null);
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b1"));
        assertTrue(rm.backends().get(0).disabledReason().contains("verification found differences"),
                rm.backends().get(0).disabledReason());
        assertEquals(1, r.actions().size(), r.actions().toString());
    }

    @Test
    void rebuildRestoresAMajorityDumpAndReplays() throws Exception {
        start(true, "b1", "b2", "b3");
        items(100);
        direct("b2", "UPDATE items SET name = 'wrong' WHERE id = 99", "INSERT INTO items VALUES (500, 'x', 1, 1, NULL)");
        VerificationReport r = rm.verify(new VerificationRequest(List.of("items"), 0, 40, OnDifference.REBUILD,
                dir.resolve("dumps")), null);
        assertTrue(r.actions().get(0).contains("rebuilt"), r.actions().toString());
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b2"));
        assertTrue(rm.verify(VerificationRequest.of(List.of()), null).identical(), "identical after the rebuild");
    }

    @Test
    void anUnknownTableIsRefused() throws Exception {
        start(false, "b1", "b2");
        SQLException e = assertThrows(SQLException.class,
                () -> rm.verify(VerificationRequest.of(List.of("nope")), null));
        assertEquals("42P01", e.getSQLState());
    }
}
