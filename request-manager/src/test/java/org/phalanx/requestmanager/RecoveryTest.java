package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.phalanx.testing.Sessions.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.testkit.jdbc.FaultyDriver;
import org.phalanx.testing.SqliteCluster;

/** Disabling at a checkpoint, replaying, dumping from a live replica and restoring, over real SQLite files. */
class RecoveryTest {
    private static final List<String> NAMES = List.of("b1", "b2", "b3");
    /** Long enough that writers waiting behind a catch-up on a busy CI machine are not refused. */
    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    private RequestManager rm;
    private SqliteCluster cluster;

    private void start(WaitPolicy policy) throws SQLException {
        cluster = new SqliteCluster(dir, NAMES.toArray(new String[0]));
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(policy)
                .lockTimeout(LOCK_TIMEOUT).analysisCacheSize(1000)
                .recovery(new RecoveryConfig(log(), true)).build();
        rm = new RequestManager("recovering", config, cluster.backendConfigs());
        rm.start();
    }

    /** The test's recovery log: files, or (where a purge must delete entries at once) a SQLite database. */
    private org.phalanx.recoverylog.RecoveryLog log() {
        if (!jdbcLog) {
            return new FileRecoveryLog(dir.resolve("log"));
        }
        org.sqlite.SQLiteDataSource db = new org.sqlite.SQLiteDataSource();
        db.setUrl("jdbc:sqlite:" + dir.resolve("log.db"));
        return new org.phalanx.recoverylog.JdbcRecoveryLog(db, "log_");
    }

    private boolean jdbcLog;

    /** A restart: the same files and log, fault knobs left as they are. */
    private void restart() throws SQLException {
        if (rm != null) {
            rm.close();
        }
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(WaitPolicy.FIRST)
                .lockTimeout(LOCK_TIMEOUT).analysisCacheSize(1000)
                .recovery(new RecoveryConfig(log(), true)).build();
        List<BackendConfig> configs = new ArrayList<>();
        for (String n : NAMES) {
            configs.add(BackendConfig.builder(n, FaultyDriver.url(n, "jdbc:sqlite:" + cluster.file(n)))
                    .driverClass(FaultyDriver.class.getName()).poolSize(20).build());
        }
        rm = new RequestManager("recovering", config, configs);
        rm.start();
    }

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
    }

    private void assertIdentical(String table, List<String> backends) throws SQLException {
        String expected = cluster.checksum(backends.get(0), table, "id");
        for (String b : backends) {
            assertEquals(expected, cluster.checksum(b, table, "id"), table + " on " + b);
        }
    }

    /** Table t, holding row 1, through the virtual database. */
    private void tableWithRowOne() throws SQLException {
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO t VALUES (1)");
        }
        settled();
    }

    /**
     * Until the schema changes have run on every backend: with wait policy first, a slower backend
     * finishing its CREATE TABLE later makes the next write read the table's defaults again, and a
     * test breaking the backends meanwhile had that read fail, not the write it meant to lose.
     */
    private void settled() {
        while (rm.schemaChangesSettling() > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
        }
    }

    /**
     * Table t with row 1, a copy of b2's file taken then (the controller stopped), then row 2 written:
     * the copy is older than b2. Put back with {@link #stopAndPutBack}.
     */
    private Path b2CopiedAtRowOneThenRowTwo() throws Exception {
        start(WaitPolicy.ALL);
        tableWithRowOne();
        rm.close(); // a clean stop: b2's file is copied while nothing runs
        rm = null;
        Path older = dir.resolve("b2-older.db");
        Files.copy(cluster.file("b2"), older);
        restart();
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (2)");
        }
        return older;
    }

    /** Stops the virtual database (the controller down) and puts b2's older copy back in its place. */
    private void stopAndPutBack(Path older) throws Exception {
        rm.close();
        rm = null;
        Files.copy(older, cluster.file("b2"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Why the backend is out of service, as JMX and the console show it. */
    private String reasonOf(String backend) {
        return rm.backends().stream().filter(b -> b.name().equals(backend)).findFirst().orElseThrow().disabledReason();
    }

    /** Stops the virtual database, then compares {@code table} on every backend. */
    private void stopAndAssertIdentical(String table) throws SQLException {
        rm.close();
        rm = null;
        assertIdentical(table, NAMES);
    }

    private Set<Integer> ids(String backend) throws SQLException {
        Set<Integer> ids = new HashSet<>();
        try (Connection c = cluster.direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM t")) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids;
    }

    @Test
    void aBackendDisabledAtACheckpointCatchesUpByReplay() throws Exception {
        start(WaitPolicy.FIRST);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, at TIMESTAMP)");
            update(s, "INSERT INTO t VALUES (1, 'one', NOW())");
            rm.disableBackend("b3");
            assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"));
            assertTrue(rm.checkpointOf("b3").isPresent());
            update(s, "INSERT INTO t VALUES (?, ?, CURRENT_TIMESTAMP)", 2, "two");
            update(s, "UPDATE t SET v = v || '!' WHERE id = 1");
            s.setAutoCommit(false);
            update(s, "INSERT INTO t VALUES (3, 'committed', NULL)");
            s.commit();
            update(s, "INSERT INTO t VALUES (4, 'rolled back', NULL)");
            s.rollback();
            s.setAutoCommit(true);
            assertThrows(SQLException.class, () -> update(s, "INSERT INTO t VALUES (1, 'duplicate', NULL)"));
            update(s, "CREATE TABLE u (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO u VALUES (9)");
            assertEquals(Set.of(1), ids("b3"), "b3 received nothing while disabled");
            rm.enableBackend("b3");
            assertEquals(BackendState.ENABLED, rm.backendStates().get("b3"));
            update(s, "INSERT INTO t VALUES (5, 'after', NULL)");
        }
        stopAndAssertIdentical("t");
        assertIdentical("u", NAMES);
        assertEquals(Set.of(1, 2, 3, 5), ids("b3"));
    }

    /**
     * Done-when 1: under a concurrent write workload a backend breaks and is disabled; a dump of a
     * live replica is restored onto it and the log replayed while the workload goes on; at the end
     * every replica is identical and no acknowledged write is missing.
     */
    @Test
    void aBrokenBackendIsRebuiltFromALiveReplicaWhileClientsKeepWriting() throws Exception {
        start(WaitPolicy.FIRST);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, client INTEGER, v INTEGER)");
        }
        Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int client = w;
            writers.add(pool.submit(() -> {
                Random random = new Random(client);
                try (Session s = rm.openSession("u")) {
                    for (int i = 0; !stop.get(); i++) {
                        int id = client * 1_000_000 + i;
                        if (random.nextInt(4) == 0) {
                            s.setAutoCommit(false);
                            update(s, "INSERT INTO t VALUES (?, ?, ?)", id, client, i);
                            update(s, "UPDATE t SET v = v + 1 WHERE client = ? AND id < ?", client, id);
                            s.commit();
                            s.setAutoCommit(true);
                        } else {
                            update(s, "INSERT INTO t VALUES (?, ?, ?)", id, client, i);
                        }
                        acknowledged.add(id);
                        Thread.sleep(2);
                    }
                }
                return null;
            }));
        }
        Thread.sleep(300);
        FaultyDriver.fault("b2").broken = true;
        while (rm.backendStates().get("b2") != BackendState.DISABLED) {
            Thread.sleep(20);
        }
        Thread.sleep(200);
        Path dump = dir.resolve("b1.dump");
        rm.backup("b1", dump, null, null);
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b1"), "dumped while serving");
        Thread.sleep(200);
        FaultyDriver.fault("b2").broken = false; // the replacement disk is in
        SQLException notEmpty = assertThrows(SQLException.class, () -> rm.restore("b2", dump, false, null));
        assertTrue(notEmpty.getMessage().toLowerCase().contains("data") || notEmpty.getMessage().contains("force"),
                notEmpty.getMessage());
        rm.restore("b2", dump, true, null);
        Thread.sleep(200);
        rm.enableBackend("b2");
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b2"));
        Thread.sleep(300);
        stop.set(true);
        for (Future<?> f : writers) {
            f.get(1, TimeUnit.MINUTES);
        }
        pool.shutdown();
        stopAndAssertIdentical("t");
        Set<Integer> stored = ids("b2");
        assertTrue(stored.containsAll(acknowledged), "acknowledged writes missing: " + (acknowledged.size() - stored.size()));
        assertTrue(acknowledged.size() > 100, "the workload ran: " + acknowledged.size());
    }

    /**
     * Exactly-once replay: an enable cut short part-way (the backend's connection breaks, as a
     * crash would cut it) leaves the backend replayable; after a restart, enable resumes from the
     * backend's own record of what it applied, so no write is applied twice (the updates here are
     * not idempotent: a second run of any would change a balance).
     */
    @Test
    void anEnableCutShortResumesFromTheBackendsRecordAndAppliesNothingTwice() throws Exception {
        start(WaitPolicy.FIRST);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE acc (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)");
            for (int i = 0; i < 10; i++) {
                update(s, "INSERT INTO acc VALUES (?, 1000)", i);
            }
            rm.disableBackend("b3");
            for (int i = 0; i < 300; i++) {
                if (i % 3 == 0) {
                    s.setAutoCommit(false);
                    update(s, "UPDATE acc SET bal = bal - 7 WHERE id = ?", i % 10);
                    update(s, "UPDATE acc SET bal = bal + 7 WHERE id = ?", (i + 1) % 10);
                    s.commit();
                    s.setAutoCommit(true);
                } else {
                    update(s, "UPDATE acc SET bal = bal - 1 WHERE id = ?", i % 10);
                }
            }
        }
        org.phalanx.testkit.jdbc.Fault b3 = FaultyDriver.fault("b3");
        long start = b3.executions.get();
        Thread cut = new Thread(() -> {
            while (b3.executions.get() < start + 200) {
                Thread.onSpinWait();
            }
            b3.broken = true;
        });
        cut.start();
        SQLException cutShort = assertThrows(SQLException.class, () -> rm.enableBackend("b3"));
        cut.join();
        // said as what happened, not as a divergence found at the end of the replay
        assertEquals("08006", cutShort.getSQLState(), cutShort.toString());
        assertTrue(cutShort.getMessage().startsWith("backend b3 lost its connection during replay at log position "),
                cutShort.toString());
        String reason = reasonOf("b3");
        assertTrue(reason.startsWith("its enable failed: backend b3 lost its connection") && reason.endsWith("enable it again to resume"),
                reason);
        b3.broken = false;
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"));
        assertTrue(rm.checkpointOf("b3").isPresent(), "still replayable: its record says how far it got");
        String partly = cluster.checksum("b3", "acc", "id");
        assertTrue(!partly.equals(cluster.checksum("b1", "acc", "id")), "the replay was cut part-way");

        restart();
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"));
        rm.enableBackend("b3");
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b3"));
        rm.close();
        rm = null;
        assertIdentical("acc", NAMES);
    }

    /**
     * A restore cut off after the dump's data is in but before the backend's record says so, where
     * a crash of the controller can cut it (here the backend breaks at its first statement on the
     * record): the backend's data is the dump's, its saved checkpoint and record are from before.
     * It used to stay replayable from that old checkpoint, and enabling it replayed again what the
     * dump already held (non-idempotent updates applied twice). Now it is failed until a restore
     * completes, as operations.md says.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"portable", "sqlite-native"})
    void aRestoreCutOffBeforeItsRecordIsResetIsNeverReplayedFromTheOldCheckpoint(String format) throws Exception {
        start(WaitPolicy.FIRST);
        Path dump = dir.resolve("live.dump");
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE acc (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)");
            for (int i = 0; i < 5; i++) {
                update(s, "INSERT INTO acc VALUES (?, 1000)", i);
            }
            rm.disableBackend("b3");
            for (int i = 0; i < 40; i++) {
                update(s, "UPDATE acc SET bal = bal - 1 WHERE id = ?", i % 5);
            }
            rm.backup("b1", dump, format, null); // its checkpoint is after b3's
            for (int i = 0; i < 40; i++) {
                update(s, "UPDATE acc SET bal = bal + 2 WHERE id = ?", i % 5);
            }
        }
        org.phalanx.testkit.jdbc.Fault b3 = FaultyDriver.fault("b3");
        b3.breakBefore = sql -> sql.contains(org.phalanx.recoverylog.ControllerTables.APPLIED);
        assertThrows(SQLException.class, () -> rm.restore("b3", dump, true, null));
        b3.reset();

        restart();
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"));
        if (rm.checkpointOf("b3").isEmpty()) {
            rm.restore("b3", dump, true, null); // failed: the restore again, as for any failed backend
        }
        rm.enableBackend("b3");
        rm.close();
        rm = null;
        assertIdentical("acc", NAMES);
    }

    /** A dump that fails leaves no checkpoint holding the log back (there is no dump to restore from it). */
    @Test
    void aFailedDumpLeavesNoCheckpoint() throws Exception {
        start(WaitPolicy.ALL);
        tableWithRowOne();
        FaultyDriver.fault("b1").breakBefore = sql -> sql.startsWith("SELECT") && sql.contains(" FROM ") && !sql.contains("sqlite_master");
        Path dump = dir.resolve("never.dump");
        assertThrows(SQLException.class, () -> rm.backup("b1", dump, "portable", null));
        FaultyDriver.fault("b1").reset();
        assertTrue(Files.notExists(dump));
        rm.close();
        rm = null;
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            assertTrue(log.checkpoints().keySet().stream().noneMatch(n -> n.startsWith("dump-")),
                    log.checkpoints().toString());
        }
    }

    /**
     * A group's primary giving a backend back to its owner (docs/distribution.md, Giving backends
     * back): drained and out of service, no checkpoint to enable it from here, left alone across a
     * restart; taken over again later, its own record brings it to the log's end.
     */
    @Test
    void aBackendGivenBackIsLeftAloneHereUntilTakenOverAgain() throws Exception {
        start(WaitPolicy.FIRST);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO t VALUES (1)");
            rm.releaseBackend("b3", "c1");
            assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"));
            assertTrue(rm.checkpointOf("b3").isEmpty(), "its owner replays by its record, not from a checkpoint here");
            SQLException refused = assertThrows(SQLException.class, () -> rm.enableBackend("b3"));
            assertEquals("55000", refused.getSQLState());
            update(s, "INSERT INTO t VALUES (2)");
        }
        restart();
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"), "held elsewhere: left alone at start");
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (3)");
        }
        assertEquals(Set.of(1), ids("b3"), "nothing written to it since it was given back");
        rm.adoptBackend("b3"); // taken over again
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b3"));
        stopAndAssertIdentical("t");
        assertEquals(Set.of(1, 2, 3), ids("b3"));
    }

    /**
     * A backend's database put back from an older copy while the controller was stopped: at the start
     * its own record of applied positions decides, not the state saved at the stop, so it is caught up
     * by replay (an outside operator's older copy was enabled as in sync and served stale rows).
     */
    @Test
    void aBackendReplacedByAnOlderCopyWhileStoppedIsCaughtUpAtStart() throws Exception {
        Path older = b2CopiedAtRowOneThenRowTwo();
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (3)");
        }
        stopAndPutBack(older);
        restart();
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b2"));
        rm.close();
        rm = null;
        assertEquals(Set.of(1, 2, 3), ids("b2"), "caught up by replay, not served as it was");
        assertIdentical("t", NAMES);
    }

    private static void breakAll(boolean broken) {
        NAMES.forEach(n -> FaultyDriver.fault(n).broken = broken);
    }

    private void enableAll() throws SQLException {
        for (String n : NAMES) {
            rm.enableBackend(n);
        }
    }

    /**
     * Every backend loses its connection during a transaction's write: its commit fails (it was
     * rolled back on every backend, and is logged so) and nothing of it appears once they are
     * enabled again. (The commit of a PostgreSQL vdb returned normally, as after a statement's
     * error; on MariaDB it returned normally too, having logged nothing; and a COMMIT logged for a
     * transaction whose branches were gone was replayed onto them at the next enable.)
     */
    @Test
    void aTransactionEveryBackendLostCannotCommitAndNeverAppears() throws Exception {
        start(WaitPolicy.FIRST);
        tableWithRowOne();
        try (Session s = rm.openSession("u")) {
            s.setAutoCommit(false);
            update(s, "INSERT INTO t VALUES (2)");
            breakAll(true);
            SQLException lost = assertThrows(SQLException.class, () -> update(s, "INSERT INTO t VALUES (3)"));
            assertEquals("08006", lost.getSQLState(), lost.toString());
            breakAll(false);
            SQLException commit = assertThrows(SQLException.class, s::commit);
            assertEquals("08006", commit.getSQLState(), commit.toString());
            assertTrue(commit.getMessage().startsWith("the transaction was rolled back"), commit.getMessage());
            s.setAutoCommit(true);
            enableAll();
            update(s, "INSERT INTO t VALUES (4)");
        }
        stopAndAssertIdentical("t");
        assertEquals(Set.of(1, 4), ids("b1"));
    }

    /**
     * A write reads what it needs of its table first (its defaults, after a schema change) from a
     * backend whose connection is lost and that no longer connects: that backend leaves service to
     * catch up and the next one answers, and the write runs on the others (it failed with the lost
     * connection, the dead backend kept in service, and so would every such write).
     */
    @Test
    void aWriteWhoseCatalogReadFindsItsFirstBackendDeadReadsFromTheNext() throws Exception {
        start(WaitPolicy.ALL);
        tableWithRowOne();
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE u (id INTEGER PRIMARY KEY)"); // t's defaults are read again at its next insert
            settled();
            FaultyDriver.fault("b1").broken = true;
            update(s, "INSERT INTO t VALUES (2)");
            assertEquals(BackendState.DISABLED, rm.backendStates().get("b1"));
            FaultyDriver.fault("b1").broken = false;
            rm.enableBackend("b1");
        }
        stopAndAssertIdentical("t");
        assertEquals(Set.of(1, 2), ids("b1"), "caught up when enabled");
    }

    /**
     * Every backend loses its connection while it runs a commit, or an auto-commit write: the
     * client is told the outcome is unknown (08007), and the recovery log, which holds it, applies it
     * to every backend enabled again (it was 08006, as if it had failed, and then appeared).
     */
    @Test
    void aCommitOrWriteEveryBackendLostHasAnUnknownOutcomeAndIsAppliedByReplay() throws Exception {
        start(WaitPolicy.FIRST);
        tableWithRowOne();
        try (Session s = rm.openSession("u")) {
            s.setAutoCommit(false);
            update(s, "INSERT INTO t VALUES (2)");
            breakAll(true);
            SQLException commit = assertThrows(SQLException.class, s::commit);
            assertEquals("08007", commit.getSQLState(), commit.toString());
            breakAll(false);
            s.setAutoCommit(true);
            enableAll();
            breakAll(true);
            SQLException write = assertThrows(SQLException.class, () -> update(s, "INSERT INTO t VALUES (3)"));
            assertEquals("08007", write.getSQLState(), write.toString());
            breakAll(false);
            enableAll();
        }
        stopAndAssertIdentical("t");
        assertEquals(Set.of(1, 2, 3), ids("b1"), "applied by the replay of the enables");
    }

    /**
     * The connection of a backend being caught up at start breaks during the replay: it stays
     * disabled, replayable from its record once it answers (it was failed as diverged, and needed a
     * dump).
     */
    @Test
    void aConnectionLostDuringTheStartsReplayLeavesTheBackendReplayable() throws Exception {
        Path older = b2CopiedAtRowOneThenRowTwo();
        stopAndPutBack(older);
        org.phalanx.testkit.jdbc.Fault b2 = FaultyDriver.fault("b2");
        b2.breakBefore = sql -> sql.startsWith("INSERT INTO t");
        try {
            restart();
        } finally {
            b2.reset();
        }
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b2"));
        String reason = reasonOf("b2");
        assertTrue(reason.contains("lost its connection during replay") && !reason.contains("restore a dump"), reason);
        rm.enableBackend("b2");
        rm.close();
        rm = null;
        assertEquals(Set.of(1, 2), ids("b2"));
        assertIdentical("t", NAMES);
    }

    /**
     * A backend put back from a copy older than the log's last purge cannot be caught up: it alone is
     * failed; the others are checked from their own records and serve (the recovery scan started at the
     * lowest record and failed every backend, and the virtual database could not be brought back).
     */
    @Test
    void aBackendOlderThanThePurgedLogFailsAloneAtStart() throws Exception {
        jdbcLog = true;
        Path older = b2CopiedAtRowOneThenRowTwo();
        rm.checkpoint("nightly");
        assertTrue(rm.purgeLog() > 0, "entries purged");
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (3)");
        }
        stopAndPutBack(older);
        restart();
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b1"));
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b3"));
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b2"), "it lacks purged entries: a dump is needed");
        String reason = reasonOf("b2");
        assertTrue(reason.contains("purged") && reason.contains("restore a dump"), reason);
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (4)");
        }
    }

    /**
     * A disabled backend's database put back from an older copy: enabling it replays from its own
     * record when that is older than its checkpoint (it was enabled without the rows in between).
     */
    @Test
    void aDisabledBackendPutBackFromAnOlderCopyGetsWhatItLacksWhenEnabled() throws Exception {
        Path older = b2CopiedAtRowOneThenRowTwo();
        rm.disableBackend("b2");
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (3)");
        }
        stopAndPutBack(older);
        restart();
        rm.enableBackend("b2");
        rm.close();
        rm = null;
        assertEquals(Set.of(1, 2, 3), ids("b2"), "row 2, written before it was disabled, replayed too");
        assertIdentical("t", NAMES);
    }

    @Test
    void backendsStatesAndCheckpointsSurviveARestart() throws Exception {
        start(WaitPolicy.FIRST);
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO t VALUES (1)");
            rm.disableBackend("b3");
            update(s, "INSERT INTO t VALUES (2)");
        }
        restart();
        assertEquals(BackendState.ENABLED, rm.backendStates().get("b1"), "in sync at the stop: enabled again");
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"), "still disabled, with its checkpoint");
        String reason = reasonOf("b3");
        assertTrue(reason.startsWith("disabled before the restart"), "why it stayed disabled, not 'not started': " + reason);
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (3)");
        }
        rm.enableBackend("b3");
        stopAndAssertIdentical("t");
        assertEquals(Set.of(1, 2, 3), ids("b3"));
    }

    @Test
    void badRecoveryRequestsAreRefusedAndChangeNothing() throws Exception {
        start(WaitPolicy.ALL);
        tableWithRowOne();
        Path dump = dir.resolve("t.dump");
        rm.backup("b1", dump, null, null);
        SQLException enabled = assertThrows(SQLException.class, () -> rm.restore("b2", dump, true, null));
        assertEquals("55000", enabled.getSQLState(), "restoring onto an enabled backend");
        try (Connection c = cluster.direct("b3"); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO t VALUES (2)"); // b3 differs: it will refuse what the others accept
        }
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (2)");
        }
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"));
        SQLException noCheckpoint = assertThrows(SQLException.class, () -> rm.enableBackend("b3"));
        assertEquals("55000", noCheckpoint.getSQLState(), "a failed backend needs a dump first");
        Path corrupt = dir.resolve("corrupt.dump");
        Files.copy(dump, corrupt);
        try (FileChannel ch = FileChannel.open(corrupt, StandardOpenOption.WRITE)) {
            ch.truncate(Files.size(corrupt) / 2);
        }
        SQLException damaged = assertThrows(SQLException.class, () -> rm.restore("b3", corrupt, true, null));
        assertTrue(damaged.getMessage().contains("corrupt.dump"), damaged.getMessage());
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"));
        rm.restore("b3", dump, true, null);
        rm.enableBackend("b3");
        stopAndAssertIdentical("t");
    }

    /**
     * A dump whose checkpoint this log does not hold - a dump of another virtual database, or one whose
     * checkpoint was deleted with it (its entries may be purged) - is refused before anything changes:
     * the backend keeps its checkpoint and catches up by replay. (An outside operator restored another
     * vdb's dump, and the backend was enabled with that database's rows.)
     */
    @Test
    void aDumpWhoseCheckpointIsNotInTheLogIsRefusedAndChangesNothing() throws Exception {
        start(WaitPolicy.ALL);
        tableWithRowOne();
        Path dump = dir.resolve("foreign.dump");
        rm.backup("b1", dump, null, null);
        rm.removeCheckpoint("dump-foreign.dump"); // as deleting the dump does; another vdb's log never had it
        rm.disableBackend("b2");
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (2)");
        }
        SQLException refused = assertThrows(SQLException.class, () -> rm.restore("b2", dump, true, null));
        assertEquals("55000", refused.getSQLState(), refused.getMessage());
        assertTrue(refused.getMessage().contains("not in the recovery log"), refused.getMessage());
        rm.enableBackend("b2"); // its checkpoint is kept: replay brings it up to date
        stopAndAssertIdentical("t");
    }

    /**
     * A restore refused because rows are in the way (no force) changes nothing: the backend keeps
     * its checkpoint and catches up by replay (it lost its checkpoint, and needed a forced restore).
     */
    @Test
    void aRefusedRestoreKeepsTheBackendsCheckpoint() throws Exception {
        start(WaitPolicy.ALL);
        tableWithRowOne();
        Path dump = dir.resolve("kept.dump");
        rm.backup("b1", dump, null, null);
        rm.disableBackend("b2");
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (2)");
        }
        SQLException refused = assertThrows(SQLException.class, () -> rm.restore("b2", dump, false, null));
        assertEquals("55000", refused.getSQLState(), refused.getMessage());
        assertTrue(refused.getMessage().contains("Nothing was changed"), refused.getMessage());
        assertTrue(rm.checkpointOf("b2").isPresent(), "its checkpoint is kept");
        rm.enableBackend("b2");
        stopAndAssertIdentical("t");
    }

    @Test
    void checkpointsAreTakenOnScheduleAndPurgeKeepsWhatIsStillNeeded() throws Exception {
        cluster = new SqliteCluster(dir, NAMES.toArray(new String[0]));
        FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"), 4096);
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(LOCK_TIMEOUT).analysisCacheSize(1000)
                .recovery(new RecoveryConfig(log, true, Duration.ofMillis(100), 50)).build();
        rm = new RequestManager("recovering", config, cluster.backendConfigs());
        rm.start();
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT)");
            update(s, "INSERT INTO t VALUES (0, 'x')");
            rm.disableBackend("b3"); // b3 needs the log from here on
            long needed = rm.checkpointOf("b3").orElseThrow();
            for (int i = 1; i <= 200; i++) {
                update(s, "INSERT INTO t VALUES (?, ?)", i, "padding padding padding padding " + i);
            }
            Thread.sleep(300);
            long auto = log.checkpoint("auto").orElseThrow();
            assertTrue(auto > needed, "the schedule took a checkpoint after the writes: " + auto);
            rm.purgeLog();
            assertTrue(log.purgedThrough() <= needed, "b3's checkpoint still holds the log back");
            rm.enableBackend("b3"); // replays from its checkpoint: nothing it needs was purged
            assertEquals(201, ids("b3").size());
            Thread.sleep(250); // a scheduled checkpoint after b3 no longer needs the old entries
            long purged = rm.purgeLog();
            assertTrue(purged > 0 && log.purgedThrough() > needed, "old segments purged: " + purged);
        }
    }

    @Test
    void aBackendUnreachableAtStartKeepsItsPlaceInTheLog() throws Exception {
        start(WaitPolicy.ALL);
        tableWithRowOne();
        FaultyDriver.fault("b3").broken = true;
        restart(); // b3 was in sync at the stop but cannot be reached now
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"));
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO t VALUES (2)");
        }
        FaultyDriver.fault("b3").broken = false;
        restart(); // reachable again, but behind: it must not serve without catching up
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"));
        rm.enableBackend("b3");
        stopAndAssertIdentical("t");
        assertEquals(Set.of(1, 2), ids("b3"));
    }
}
