package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.testing.Sessions.update;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.recoverylog.JdbcRecoveryLog;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.testing.SqliteCluster;
import org.phalanx.testkit.disk.LimitedDisk;
import org.phalanx.testkit.disk.SqlitePageLimit;

/**
 * The recovery log's storage fills up under a running virtual database (three SQLite backends):
 * a file log on a {@link LimitedDisk} (its segment writes fail with ENOSPC, as on a full disk),
 * or a JDBC log in a SQLite file that cannot grow (SQLite's own SQLITE_FULL). Writes are refused
 * with 53100 while it is full and are on no backend; once space returns writes go on without a
 * restart; after a restart every backend is enabled and identical, holding every acknowledged
 * write.
 */
class LogDiskFullTest {
    private static final List<String> NAMES = List.of("b1", "b2", "b3");
    /** The virtual login: big, so that every entry (commits too) needs new room in either log. */
    private static final String USER = "u".repeat(20_000);
    private static final String VALUE = "v".repeat(20_000);
    private static final Map<String, BackendState> ALL_ENABLED =
            Map.of("b1", BackendState.ENABLED, "b2", BackendState.ENABLED, "b3", BackendState.ENABLED);

    enum LogKind { FILE, SQLITE_JDBC }

    @TempDir
    Path dir;
    private final LimitedDisk disk = new LimitedDisk();
    private SqlitePageLimit logDatabase;
    private LogKind kind;
    private SqliteCluster cluster;
    private RequestManager rm;

    @AfterEach
    void stop() {
        free();
        if (rm != null) {
            rm.close();
        }
    }

    private RecoveryLog openLog() {
        return switch (kind) {
            case FILE -> new FileRecoveryLog(dir.resolve("log"), FileRecoveryLog.DEFAULT_SEGMENT_SIZE, disk::open);
            case SQLITE_JDBC -> {
                if (logDatabase == null) {
                    logDatabase = new SqlitePageLimit("jdbc:sqlite:" + dir.resolve("log.db"));
                }
                yield new JdbcRecoveryLog(logDatabase, "log_");
            }
        };
    }

    private void start(LogKind kind, boolean enableSyncedOnStart) throws SQLException {
        this.kind = kind;
        cluster = new SqliteCluster(dir, NAMES.toArray(new String[0]));
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(5))
                .recovery(new RecoveryConfig(openLog(), enableSyncedOnStart)).build();
        rm = new RequestManager("full", config, cluster.backendConfigs());
        rm.start();
    }

    private void restart(boolean enableSyncedOnStart) throws SQLException {
        rm.close();
        rm = null;
        start(kind, enableSyncedOnStart);
    }

    private void fill() {
        disk.fill();
        if (logDatabase != null) {
            logDatabase.fill();
        }
    }

    private void free() {
        disk.free();
        if (logDatabase != null) {
            logDatabase.free();
        }
    }

    private static void insert(Session s, long id) throws SQLException {
        update(s, "INSERT INTO t VALUES (?, ?)", id, VALUE);
    }

    private static void refusedForAFullDisk(SQLException e) {
        assertEquals(SqlState.DISK_FULL.code(), e.getSQLState(), e.toString());
    }

    private TreeSet<Long> ids(String backend) throws SQLException {
        TreeSet<Long> ids = new TreeSet<>();
        try (Connection c = cluster.direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM t")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    /** Every backend holds exactly these rows, and the same data. */
    private void everyBackendHolds(TreeSet<Long> expected) throws SQLException {
        String checksum = cluster.checksum("b1", "t", "id");
        for (String b : NAMES) {
            assertEquals(expected, ids(b), "rows on " + b);
            assertEquals(checksum, cluster.checksum(b, "t", "id"), "data on " + b);
        }
    }

    private static TreeSet<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    /** Writes acknowledged before the disk fills: rows 1 to 4, two of them in a transaction. */
    private void acknowledgedWrites(Session s) throws SQLException {
        update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
        insert(s, 1);
        insert(s, 2);
        s.setAutoCommit(false);
        insert(s, 3);
        insert(s, 4);
        s.commit();
        s.setAutoCommit(true);
    }

    /**
     * Every kind of unit while the log's storage is full: an auto-commit write, a transaction whose
     * write is refused (it cannot commit), a transaction whose commit is refused, a rollback. Each
     * refused one gets 53100 and is rolled back on every backend; no backend leaves service.
     */
    private void writesWhileFull(Session s) throws SQLException {
        fill();
        refusedForAFullDisk(assertThrows(SQLException.class, () -> insert(s, 100)));

        s.setAutoCommit(false);
        refusedForAFullDisk(assertThrows(SQLException.class, () -> insert(s, 101)));
        refusedForAFullDisk(assertThrows(SQLException.class, s::commit, "its write is not in the log"));
        s.setAutoCommit(true);

        free();
        s.setAutoCommit(false);
        insert(s, 102); // logged
        fill();
        refusedForAFullDisk(assertThrows(SQLException.class, s::commit));
        s.setAutoCommit(true);

        free();
        s.setAutoCommit(false);
        insert(s, 103);
        fill();
        s.rollback(); // answered: a rollback needs nothing durable
        s.setAutoCommit(true);

        assertEquals(ALL_ENABLED, rm.backendStates(), "the log's disk is no backend's failure");
        everyBackendHolds(range(1, 4));
    }

    @ParameterizedTest
    @EnumSource(LogKind.class)
    void writesAreRefusedWhileTheLogIsFullAndGoOnOnceSpaceReturns(LogKind kind) throws Exception {
        start(kind, true);
        try (Session s = rm.openSession(USER)) {
            acknowledgedWrites(s);
            writesWhileFull(s);
            free();
            insert(s, 5); // no restart
            s.setAutoCommit(false);
            insert(s, 6);
            insert(s, 7);
            s.commit();
            s.setAutoCommit(true);
        }
        everyBackendHolds(range(1, 7));
        assertEquals(ALL_ENABLED, rm.backendStates());

        restart(true);
        assertEquals(ALL_ENABLED, rm.backendStates(), "no operator needed");
        everyBackendHolds(range(1, 7));
        try (Session s = rm.openSession(USER)) {
            insert(s, 8);
        }
        everyBackendHolds(range(1, 8));
        restart(true);
        assertEquals(ALL_ENABLED, rm.backendStates());
        everyBackendHolds(range(1, 8));
    }

    /**
     * Stopped while the disk is still full: the log cannot write the rollback it owes for the
     * refused commit, so the backends stay "enabled" in it and the next start checks each against
     * the log by its own record of applied positions: all come back enabled.
     */
    @Test
    void stoppedWhileFullEveryBackendComesBackAtTheNextStart() throws Exception {
        start(LogKind.FILE, true);
        try (Session s = rm.openSession(USER)) {
            acknowledgedWrites(s);
            writesWhileFull(s);
        }
        rm.close(); // the disk is still full
        rm = null;
        free();
        start(LogKind.FILE, true);
        assertEquals(ALL_ENABLED, rm.backendStates());
        everyBackendHolds(range(1, 4));
        try (Session s = rm.openSession(USER)) {
            insert(s, 5);
        }
        everyBackendHolds(range(1, 5));
    }

    /**
     * The state the issue found: backends saved "in sync" at a position beyond the log's end (the
     * positions of refused entries counted as logged). Each backend's record shows it holds exactly
     * the log, so each is enabled again; with enableSyncedOnStart="false" each stays disabled at the
     * log's end and can be enabled.
     */
    @ParameterizedTest
    @EnumSource(LogKind.class)
    void backendsSavedInSyncBeyondTheLogsEndComeBack(LogKind kind) throws Exception {
        start(kind, true);
        try (Session s = rm.openSession(USER)) {
            acknowledgedWrites(s);
        }
        rm.close();
        rm = null;
        long end;
        try (RecoveryLog log = openLog()) {
            end = log.lastPosition();
            for (String b : NAMES) {
                log.putState("backend." + b, "synced@" + (end + 12));
            }
        }

        start(kind, true);
        assertEquals(ALL_ENABLED, rm.backendStates());
        everyBackendHolds(range(1, 4));
        try (Session s = rm.openSession(USER)) {
            insert(s, 5);
        }
        rm.close();
        rm = null;
        try (RecoveryLog log = openLog()) {
            end = log.lastPosition();
            assertEquals("synced@" + end, log.states().get("backend.b1"), "saved at the log's end");
            for (String b : NAMES) {
                log.putState("backend." + b, "synced@" + (end + 12));
            }
        }

        start(kind, false);
        for (String b : NAMES) {
            assertEquals(BackendState.DISABLED, rm.backendStates().get(b));
            assertEquals(Optional.of(end), rm.checkpointOf(b), "replayable from the log's end");
        }
        for (String b : NAMES) {
            rm.enableBackend(b);
        }
        try (Session s = rm.openSession(USER)) {
            insert(s, 6);
        }
        everyBackendHolds(range(1, 6));
    }

    /**
     * The root cause of the issue's "synced@1895 while the log ends at 1883": positions handed out
     * to refused entries were saved as the backends' place. A clean stop saves the log's durable end.
     */
    @Test
    void aCleanStopAfterRefusalsSavesTheDurableEnd() throws Exception {
        start(LogKind.FILE, true);
        try (Session s = rm.openSession(USER)) {
            acknowledgedWrites(s);
            writesWhileFull(s);
            refusedForAFullDisk(assertThrows(SQLException.class, () -> insert(s, 104)));
        }
        free();
        long handedOut = rm.lastPosition();
        rm.close();
        rm = null;
        try (RecoveryLog log = openLog()) {
            assertTrue(log.lastPosition() < handedOut, "the last positions handed out were refused");
            for (String b : NAMES) {
                assertEquals("synced@" + log.lastPosition(), log.states().get("backend." + b));
            }
        }
        start(LogKind.FILE, true);
        assertEquals(ALL_ENABLED, rm.backendStates());
        everyBackendHolds(range(1, 4));
    }
}
