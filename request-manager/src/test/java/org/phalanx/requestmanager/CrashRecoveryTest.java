package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.Credentials;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.phalanx.testing.Sessions.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.ControllerTables;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.testing.SqliteCluster;
import org.phalanx.testkit.jdbc.FaultyDriver;

/**
 * Recovery after an unclean stop, over real SQLite files and a real file log. The states a crash
 * leaves behind are made here by hand (the log still saying "enabled", a backend file from an
 * earlier moment, a record the log cannot explain); the controller-process test kills a real
 * controller.
 */
class CrashRecoveryTest {
    private static final List<String> NAMES = List.of("b1", "b2", "b3");

    @TempDir
    Path dir;
    private RequestManager rm;
    private SqliteCluster cluster;

    private void start(String... unreachable) throws SQLException {
        cluster = new SqliteCluster(dir, NAMES.toArray(new String[0]));
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(3)).analysisCacheSize(1000)
                .recovery(new RecoveryConfig(new FileRecoveryLog(dir.resolve("log")), true)).build();
        List<BackendConfig> backends = cluster.backendConfigs();
        for (String b : unreachable) {
            FaultyDriver.fault(b).broken = true;
        }
        rm = new RequestManager("crashing", config, backends);
        rm.start();
    }

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
    }

    private void stopCleanly() {
        rm.close();
        rm = null;
    }

    /** What a kill -9 leaves in the log's state store: every backend that was in service still "enabled". */
    private void asIfTheControllerHadDied() {
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            for (String b : NAMES) {
                log.putState("backend." + b, "enabled");
            }
        }
    }

    private Map<String, String> savedStates() {
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            return log.states();
        }
    }

    /** Non-idempotent work: auto-commit increments, committed and rolled-back transactions. */
    private static void increments(Session s, int rounds, int firstItem) throws SQLException {
        for (int i = 0; i < rounds; i++) {
            update(s, "UPDATE c SET n = n + 1 WHERE id = ?", i % 3);
            s.setAutoCommit(false);
            update(s, "UPDATE c SET n = n + 1 WHERE id = ?", 3);
            update(s, "INSERT INTO items VALUES (?)", firstItem + i);
            s.commit();
            update(s, "UPDATE c SET n = n + 100 WHERE id = ?", 3);
            update(s, "INSERT INTO items VALUES (?)", -(firstItem + i));
            s.rollback();
            s.setAutoCommit(true);
        }
    }

    private void createTables() throws SQLException {
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE c (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
            update(s, "CREATE TABLE items (id INTEGER PRIMARY KEY)");
            for (int id = 0; id <= 3; id++) {
                update(s, "INSERT INTO c VALUES (?, 0)", id);
            }
        }
    }

    /** Starts, writes, stops cleanly; returns the log's last position. */
    private long someWorkThenACleanStop() throws SQLException {
        start();
        createTables();
        try (Session s = rm.openSession("u")) {
            increments(s, 3, 1);
        }
        long last = rm.lastPosition();
        stopCleanly();
        return last;
    }

    private List<Long> counters(String backend) throws SQLException {
        List<Long> n = new ArrayList<>();
        try (Connection c = cluster.direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT n FROM c ORDER BY id")) {
            while (rs.next()) {
                n.add(rs.getLong(1));
            }
        }
        return n;
    }

    private void assertIdentical(String table) throws SQLException {
        String expected = cluster.checksum("b1", table, "id");
        for (String b : NAMES) {
            assertEquals(expected, cluster.checksum(b, table, "id"), table + " on " + b);
        }
    }

    private TreeSet<Long> appliedRecord(String backend) throws SQLException {
        TreeSet<Long> positions = new TreeSet<>();
        try (Connection c = cluster.direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT position FROM " + ControllerTables.APPLIED)) {
            while (rs.next()) {
                positions.add(rs.getLong(1));
            }
        }
        return positions;
    }

    /**
     * A backend that was behind when the controller died (here: its file as it was earlier, work
     * and record together, as a crash leaves them) gets exactly what it lacks: the increments
     * counted once, the rolled-back transactions not at all.
     */
    @Test
    void aBackendBehindAtTheCrashGetsExactlyWhatItLacks() throws Exception {
        start();
        createTables();
        try (Session s = rm.openSession("u")) {
            increments(s, 10, 1);
            try (Connection b3 = cluster.direct("b3"); Statement st = b3.createStatement()) {
                st.executeUpdate("backup to \"" + dir.resolve("b3-earlier.db") + "\"");
            }
            increments(s, 15, 100);
        }
        stopCleanly();
        Files.copy(dir.resolve("b3-earlier.db"), cluster.file("b3"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.deleteIfExists(Path.of(cluster.file("b3") + "-wal"));
        Files.deleteIfExists(Path.of(cluster.file("b3") + "-shm"));
        assertEquals(List.of(4L, 3L, 3L, 10L), counters("b3"), "b3 is behind");
        asIfTheControllerHadDied();

        start();
        assertEquals(Map.of("b1", BackendState.ENABLED, "b2", BackendState.ENABLED, "b3", BackendState.ENABLED),
                rm.backendStates());
        try (Session s = rm.openSession("u")) {
            increments(s, 2, 1000); // it serves and records as before
        }
        stopCleanly();
        assertIdentical("c");
        assertIdentical("items");
        assertEquals(List.of(10L, 9L, 8L, 27L), counters("b3"), "every increment exactly once, none rolled back");
        try (Connection c = cluster.direct("b3"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*), MIN(id) FROM items")) {
            rs.next();
            assertEquals(27, rs.getInt(1));
            assertEquals(1, rs.getInt(2), "no row of a rolled-back transaction");
        }
    }

    /**
     * A backend that does not answer at the start after a crash keeps its place in the log (its
     * record's floor) rather than counting as failed: once it answers, enableBackend replays exactly
     * what its record says it lacks, those it missed before the crash and those written since. It
     * used to need a dump restored (KillDuringRecoveryIT: a SQLite backend that took longer than the
     * pool's connection timeout to open at a start under load).
     */
    @Test
    void aBackendUnreachableAtTheStartAfterACrashIsEnabledOnceItAnswers() throws Exception {
        start();
        createTables();
        try (Session s = rm.openSession("u")) {
            increments(s, 10, 1);
            try (Connection b3 = cluster.direct("b3"); Statement st = b3.createStatement()) {
                st.executeUpdate("backup to \"" + dir.resolve("b3-earlier.db") + "\"");
            }
            increments(s, 15, 100);
        }
        stopCleanly();
        Files.copy(dir.resolve("b3-earlier.db"), cluster.file("b3"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.deleteIfExists(Path.of(cluster.file("b3") + "-wal"));
        Files.deleteIfExists(Path.of(cluster.file("b3") + "-shm"));
        asIfTheControllerHadDied();

        start("b3");
        assertEquals(Map.of("b1", BackendState.ENABLED, "b2", BackendState.ENABLED, "b3", BackendState.DISABLED),
                rm.backendStates());
        assertTrue(rm.checkpointOf("b3").isPresent(), "it keeps its place in the log");
        try (Session s = rm.openSession("u")) {
            increments(s, 2, 1000); // not sent to b3
        }
        FaultyDriver.fault("b3").broken = false;
        rm.enableBackend("b3");
        stopCleanly();
        assertIdentical("c");
        assertIdentical("items");
        assertEquals(List.of(10L, 9L, 8L, 27L), counters("b3"), "every increment exactly once, none rolled back");
    }

    /**
     * A backend holding a position the log does not have (it committed work whose log entry was
     * lost) cannot be repaired by replay: it stays disabled as failed; the others recover.
     */
    @Test
    void aBackendHoldingAPositionBeyondTheLogsEndStaysFailed() throws Exception {
        long last = someWorkThenACleanStop();
        try (Connection c = cluster.direct("b2"); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO " + ControllerTables.APPLIED + " VALUES (" + (last + 3) + ")");
        }
        try (Connection c = cluster.direct("b3"); Statement s = c.createStatement()) {
            s.executeUpdate("DROP TABLE " + ControllerTables.APPLIED);
        }
        asIfTheControllerHadDied();

        start();
        assertEquals(Map.of("b1", BackendState.ENABLED, "b2", BackendState.DISABLED, "b3", BackendState.DISABLED),
                rm.backendStates());
        assertTrue(rm.checkpointOf("b2").isEmpty(), "a failed backend needs a dump: no checkpoint to replay from");
        stopCleanly();
        Map<String, String> states = savedStates();
        assertEquals("failed", states.get("backend.b2"));
        assertEquals("failed", states.get("backend.b3"), "no record of what it applied: not provable either");
        assertTrue(states.get("backend.b1").startsWith("synced@"), states.toString());
    }

    /**
     * A backend enabled by replay holds, in its record, the units it was not sent while it was
     * disabled (it got them by replay). A crash before the next checkpoint trims them must not
     * take that for a contradiction: it was found failed after the crash (KillDuringRecoveryIT).
     */
    @Test
    void aCrashSoonAfterAnEnableByReplayRecoversTheReplayedBackend() throws Exception {
        start();
        createTables();
        try (Session s = rm.openSession("u")) {
            increments(s, 3, 1);
            rm.disableBackend("b3");
            increments(s, 5, 100); // b3 is not sent these: it gets them by replay
            rm.enableBackend("b3");
            increments(s, 2, 200);
        }
        stopCleanly();
        asIfTheControllerHadDied();

        start();
        assertEquals(Map.of("b1", BackendState.ENABLED, "b2", BackendState.ENABLED, "b3", BackendState.ENABLED),
                rm.backendStates());
        stopCleanly();
        assertIdentical("c");
        assertIdentical("items");
        assertEquals(List.of(4L, 4L, 2L, 10L), counters("b3"), "every increment exactly once");
    }

    /**
     * An enable the controller's crash cut short ("replaying@N" saved, part of the backlog applied
     * with its record) is completed at the next start from the backend's record, with no operator:
     * nothing applied twice.
     */
    @Test
    void anEnableTheCrashCutShortIsCompletedAtTheNextStart() throws Exception {
        start();
        createTables();
        long from;
        try (Session s = rm.openSession("u")) {
            increments(s, 3, 1);
            rm.disableBackend("b3");
            from = rm.checkpointOf("b3").orElseThrow();
            increments(s, 30, 100);
        }
        java.util.concurrent.atomic.AtomicInteger replayed = new java.util.concurrent.atomic.AtomicInteger();
        FaultyDriver.fault("b3").breakBefore = sql -> sql.startsWith("UPDATE") && replayed.incrementAndGet() == 25;
        assertThrows(SQLException.class, () -> rm.enableBackend("b3"));
        FaultyDriver.fault("b3").reset();
        List<Long> partly = counters("b3");
        assertTrue(partly.get(3) > 3 && partly.get(3) < 33, "cut part-way: " + partly);
        stopCleanly();
        asIfTheControllerHadDied();
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            log.putState("backend.b3", "replaying@" + from); // what a crash during the replay leaves
        }

        start();
        assertEquals(Map.of("b1", BackendState.ENABLED, "b2", BackendState.ENABLED, "b3", BackendState.ENABLED),
                rm.backendStates());
        stopCleanly();
        assertIdentical("c");
        assertIdentical("items");
        assertEquals(List.of(11L, 11L, 11L, 33L), counters("b3"), "every increment exactly once");
    }

    /**
     * A restore the crash cut off ("restoring@N" saved): the backend's record decides at the next
     * start. If it shows the restore complete (only the dump's checkpoint), the backend waits at
     * that checkpoint for enableBackend; otherwise its data is unknown and it is failed until the
     * dump is restored again.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "restore complete: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void aRestoreTheCrashCutOffIsJudgedByTheBackendsRecord(boolean complete) throws Exception {
        start();
        createTables();
        Path dump = dir.resolve("b1.dump");
        long at;
        try (Session s = rm.openSession("u")) {
            increments(s, 3, 1);
            rm.disableBackend("b3");
            increments(s, 4, 100);
            at = rm.backup("b1", dump, "portable", null).checkpointPosition();
            increments(s, 5, 200);
            if (complete) {
                rm.restore("b3", dump, true, null); // the crash came after its record was reset
            } else {
                try (Connection c = cluster.direct("b3"); Statement st = c.createStatement()) {
                    st.executeUpdate("DELETE FROM " + ControllerTables.APPLIED); // the first step of a restore
                }
            }
        }
        stopCleanly();
        asIfTheControllerHadDied();
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            log.putState("backend.b3", "restoring@" + at);
        }

        start();
        assertEquals(BackendState.DISABLED, rm.backendStates().get("b3"));
        if (complete) {
            assertEquals(at, rm.checkpointOf("b3").orElseThrow());
        } else {
            assertTrue(rm.checkpointOf("b3").isEmpty(), "failed: restore again");
            assertThrows(SQLException.class, () -> rm.enableBackend("b3"));
            rm.restore("b3", dump, true, null);
        }
        rm.enableBackend("b3");
        stopCleanly();
        assertIdentical("c");
        assertIdentical("items");
        assertEquals(List.of(5L, 4L, 3L, 12L), counters("b3"), "every increment exactly once");
    }

    /** A clean stop needs no recovery: the record restarts at the log's end on every backend. */
    @Test
    void aCleanRestartStartsTheRecordAtTheLogsEnd() throws Exception {
        long last = someWorkThenACleanStop();
        start();
        for (String b : NAMES) {
            assertEquals(new TreeSet<>(List.of(last)), appliedRecord(b), "floor only, on " + b);
        }
        try (Session s = rm.openSession("u")) {
            update(s, "UPDATE c SET n = n + 1 WHERE id = 0");
        }
        for (String b : NAMES) {
            assertEquals(new TreeSet<>(List.of(last, last + 1)), appliedRecord(b), "one row per unit, on " + b);
        }
    }

    /** The record stays small: a checkpoint raises each backend's floor and deletes the rows below it. */
    @Test
    void checkpointsTrimTheRecord() throws Exception {
        start();
        createTables();
        try (Session s = rm.openSession("u")) {
            increments(s, 5, 1);
        }
        assertTrue(appliedRecord("b1").size() > 10);
        long position = rm.checkpoint("now");
        for (String b : NAMES) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!appliedRecord(b).equals(new TreeSet<>(List.of(position))) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(new TreeSet<>(List.of(position)), appliedRecord(b), "trimmed to the floor on " + b);
        }
    }

    /** The record is the controller's, not the application's: not in the learnt schema, not in dumps. */
    @Test
    void theRecordIsInNoDumpAndNotInTheSchema() throws Exception {
        start();
        createTables();
        try (Session s = rm.openSession("u")) {
            increments(s, 2, 1);
            Result.Cached r = s.metadata("getTables", java.util.Arrays.asList(null, null, "%", null));
            int name = 0;
            while (!r.metaData().getColumnLabel(name + 1).equalsIgnoreCase("TABLE_NAME")) {
                name++;
            }
            int column = name;
            List<String> tables = r.rows().stream().map(row -> row[column].toString().toLowerCase(java.util.Locale.ROOT))
                    .toList();
            assertTrue(tables.containsAll(List.of("c", "items")), tables.toString());
            assertFalse(tables.contains(ControllerTables.APPLIED), tables.toString());
        }
        for (String format : List.of("portable", "sqlite-native")) {
            Path dump = dir.resolve(format + ".dump");
            DumpInfo info = rm.backup("b1", dump, format, null);
            List<String> dumped = info.tables().stream().map(t -> t.name().toLowerCase(java.util.Locale.ROOT)).toList();
            assertEquals(List.of("c", "items"), dumped.stream().sorted().toList(), format);
            Path restored = dir.resolve(format + "-restored.db");
            try (Connection target = DriverManager.getConnection("jdbc:sqlite:" + restored)) {
                org.phalanx.recoverylog.dump.Backupers.forFormat(format).restore(dump, target, false, null);
                try (PreparedStatement ps = target.prepareStatement(
                        "SELECT COUNT(*) FROM sqlite_master WHERE name = ?")) {
                    ps.setString(1, ControllerTables.APPLIED);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        assertEquals(0, rs.getInt(1), format + " dump carries no record table");
                    }
                }
            }
        }
    }

    /**
     * The same on PostgreSQL and MariaDB (the record goes with the COMMIT there): a backend that
     * lost its last unit, work and record together, gets it back once.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"postgresql", "mariadb"})
    void onPostgresqlAndMariaDb(String engine) throws Exception {
        String db = "phalanx_crash_test";
        boolean pg = engine.equals("postgresql");
        String url = pg ? org.phalanx.testkit.db.TestDatabases.createPostgres(db)
                : org.phalanx.testkit.db.TestDatabases.createMariaDb(db);
        Credentials login = new Credentials(pg ? "postgres" : "root", "");
        try {
            cluster = new SqliteCluster(dir, "lite");
            List<BackendConfig> backends = List.of(
                    BackendConfig.builder("lite", "jdbc:sqlite:" + cluster.file("lite")).poolSize(5).build(),
                    BackendConfig.builder("other", url).credentials(login).poolSize(5).build());
            java.util.function.Supplier<RequestManager> make = () -> new RequestManager("mixed",
                    RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                            .lockTimeout(Duration.ofSeconds(10)).analysisCacheSize(100)
                            .recovery(new RecoveryConfig(new FileRecoveryLog(dir.resolve("log")), true)).build(),
                    backends);
            rm = make.get();
            rm.start();
            createTables();
            long lost;
            try (Session s = rm.openSession("u")) {
                increments(s, 3, 1);
                update(s, "UPDATE c SET n = n + 1 WHERE id = 2");
                lost = rm.lastPosition();
            }
            stopCleanly();
            try (Connection c = DriverManager.getConnection(url, login.user(), "")) {
                c.setAutoCommit(false);
                try (Statement st = c.createStatement()) {
                    assertEquals(1, st.executeUpdate("UPDATE c SET n = n - 1 WHERE id = 2"));
                    // the record lives outside the application's schema: schema/database phalanx
                    assertEquals(1, st.executeUpdate("DELETE FROM " + ControllerTables.SCHEMA + ".applied WHERE position = "
                            + lost + (pg ? "" : " AND db = DATABASE()")));
                }
                c.commit();
            }
            try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
                log.putState("backend.lite", "enabled");
                log.putState("backend.other", "enabled");
            }
            rm = make.get();
            rm.start();
            assertEquals(Map.of("lite", BackendState.ENABLED, "other", BackendState.ENABLED), rm.backendStates());
            stopCleanly();
            try (Connection c = DriverManager.getConnection(url, login.user(), ""); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT n FROM c ORDER BY id")) {
                List<Long> n = new ArrayList<>();
                while (rs.next()) {
                    n.add(rs.getLong(1));
                }
                assertEquals(counters("lite"), n, "the lost increment is back, once");
                assertEquals(List.of(1L, 1L, 2L, 3L), n);
            }
        } finally {
            if (rm != null) {
                rm.close();
                rm = null;
            }
            if (pg) {
                org.phalanx.testkit.db.TestDatabases.dropPostgres(db);
            } else {
                org.phalanx.testkit.db.TestDatabases.dropMariaDb(db);
            }
        }
    }
}
