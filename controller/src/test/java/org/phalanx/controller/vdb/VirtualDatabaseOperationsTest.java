package org.phalanx.controller.vdb;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.config.ControllerConfigReader;
import org.phalanx.controller.config.VirtualDatabaseConfig;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Operator actions on a virtual database: refusals, dump files, and the seam without a request manager. */
class VirtualDatabaseOperationsTest {
    @TempDir
    Path dir;
    private VirtualDatabase vdb;

    @AfterEach
    void stop() {
        if (vdb != null) {
            vdb.shutdown(Duration.ofSeconds(5));
        }
    }

    private VirtualDatabaseConfig config(String recoveryLog) throws Exception {
        Files.writeString(dir.resolve("controller.xml"), """
                <controller xmlns="urn:phalanx:controller:1">
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """);
        Files.writeString(dir.resolve("vdb.xml"), """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="u" password="p"/></users>
                  <backends>
                    <backend name="b1" url="jdbc:sqlite:b1.db"/>
                    <backend name="b2" url="jdbc:sqlite:b2.db"/>
                  </backends>
                  %s
                </virtualDatabase>
                """.formatted(recoveryLog));
        return ControllerConfigReader.read(dir.resolve("controller.xml")).virtualDatabases().get(0);
    }

    private VirtualDatabase started(String recoveryLog) throws Exception {
        vdb = VirtualDatabase.start(config(recoveryLog));
        try (Session s = vdb.login("u", "p")) {
            execute(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
            for (int i = 1; i <= 20; i++) {
                execute(s, "INSERT INTO t VALUES (" + i + ", 'row " + i + "')");
            }
        }
        return vdb;
    }

    private static void execute(Session s, String sql) throws SQLException {
        try (Result r = s.execute(Request.of(sql))) {
            assertTrue(r instanceof Result.UpdateCount, sql);
        }
    }

    private static void assertRefused(String state, String messagePart, ThrowingAction action) {
        SQLException e = assertThrows(SQLException.class, action::run);
        assertEquals(state, e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains(messagePart), "should mention '" + messagePart + "': " + e.getMessage());
    }

    @FunctionalInterface
    private interface ThrowingAction {
        void run() throws Exception;
    }

    @Test
    void dumpsLiveInTheDumpFolderUnderPlainNames() throws Exception {
        started("<recoveryLog dir=\"log\"/>");
        Path dumps = dir.resolve("dumps").toAbsolutePath().normalize();
        assertEquals(dumps, vdb.dumpDir().orElseThrow());
        assertEquals(List.of(), vdb.listDumps(), "no folder yet: no dumps");

        for (String bad : List.of("../escape", "sub/dir", "a\\b", ".hidden", "..", "", " ")) {
            assertRefused("22023", bad.isBlank() ? "needs a name" : "plain file name",
                    () -> vdb.backup("b1", bad, null, null));
        }
        assertFalse(Files.exists(dumps), "refused names create nothing");

        DumpInfo info = vdb.backup("b1", "first", null, null);
        assertEquals(List.of(new DumpInfo.TableRows("t", 20)), info.tables());
        assertEquals("dump-first", info.checkpointName());
        assertTrue(Files.isRegularFile(dumps.resolve("first")));
        assertEquals(BackendState.ENABLED, vdb.backendStates().get("b1"));
        assertRefused("42710", "already exists", () -> vdb.backup("b2", "first", "sqlite-native", null));
        assertRefused("22023", "no backuper for dump format 'tar'", () -> vdb.backup("b1", "other", "tar", null));
        assertRefused("42704", "no backend b9", () -> vdb.backup("b9", "other", null, null));
        assertRefused("55000", "disable b1 first", () -> vdb.backup("b1", "other", "mysqldump", null));

        Files.writeString(dumps.resolve("notes.txt"), "not a dump");
        Files.writeString(dumps.resolve(".first.1234.tmp"), "a dump being written");
        List<VirtualDatabase.Dump> listed = vdb.listDumps();
        assertEquals(List.of("first", "notes.txt"), listed.stream().map(VirtualDatabase.Dump::name).toList());
        assertEquals(info.checkpointPosition(), listed.get(0).info().checkpointPosition());
        assertTrue(listed.get(0).readable());
        assertFalse(listed.get(1).readable());
        assertNull(listed.get(1).info());
        assertTrue(listed.get(1).problem() != null && !listed.get(1).problem().isBlank());

        assertRefused("42704", "no dump named missing", () -> vdb.restore("b2", "missing", true, null));
        assertRefused("55000", "disable it first", () -> vdb.restore("b2", "first", true, null));
        assertRefused("22023", "plain file name", () -> vdb.deleteDump("../vdb.xml"));
        assertTrue(Files.exists(dir.resolve("vdb.xml")));
        assertTrue(vdb.checkpoints().containsKey("dump-first"));
        vdb.deleteDump("first");
        assertFalse(Files.exists(dumps.resolve("first")));
        assertFalse(vdb.checkpoints().containsKey("dump-first"), "the log no longer keeps entries for it");
        assertRefused("42704", "no dump named first", () -> vdb.deleteDump("first"));
    }

    @Test
    void aRestoreOntoADisabledBackendThenAReplayRejoinsIt() throws Exception {
        started("<recoveryLog url=\"jdbc:sqlite:log.db\" checkpointEveryWrites=\"5\"/>");
        vdb.disableBackend("b2");
        assertEquals(BackendState.DISABLED, vdb.backendStates().get("b2"));
        long[] reported = new long[2];
        vdb.backup("b1", "b1.dump", null, (done, total, unit) -> {
            reported[0] = done;
            reported[1] = total;
        });
        assertEquals(20, reported[0], "progress ends with done == total rows");
        try (Session s = vdb.login("u", "p")) {
            execute(s, "INSERT INTO t VALUES (21, 'after the dump')");
        }
        DumpInfo restored = vdb.restore("b2", "b1.dump", true, (done, total, unit) -> { });
        assertEquals(restored.checkpointPosition(), vdb.checkpointOf("b2").orElseThrow());
        vdb.enableBackend("b2");
        assertEquals(Map.of("b1", BackendState.ENABLED, "b2", BackendState.ENABLED), vdb.backendStates());
        long nightly = vdb.checkpoint("nightly");
        assertTrue(nightly >= restored.checkpointPosition());
        Map<String, Long> checkpoints = vdb.checkpoints();
        assertEquals(restored.checkpointPosition(), checkpoints.get("dump-b1.dump"));
        assertEquals(nightly, checkpoints.get("nightly"));
        assertTrue(checkpoints.containsKey("auto"), "every 5 writes: " + checkpoints);
        assertFalse(checkpoints.containsKey("backend-b2"), "released once b2 is enabled again: " + checkpoints);
        List<Long> positions = List.copyOf(checkpoints.values());
        for (int i = 1; i < positions.size(); i++) {
            assertTrue(positions.get(i - 1) <= positions.get(i), "oldest first: " + checkpoints);
        }
        vdb.purgeLog();
    }

    @Test
    void reservedCheckpointNamesAreRefused() throws Exception {
        started("<recoveryLog dir=\"log\"/>");
        for (String reserved : List.of("backend-b1", "dump-x", "auto")) {
            assertRefused("22023", "reserved", () -> vdb.checkpoint(reserved));
        }
        assertRefused("22023", "needs a name", () -> vdb.checkpoint(" "));
        long first = vdb.checkpoint("mine");
        try (Session s = vdb.login("u", "p")) {
            execute(s, "INSERT INTO t VALUES (21, 'later')");
        }
        assertTrue(vdb.checkpoint("mine") > first, "taking it again moves it");
    }

    @Test
    void oneOperatorActionAtATime() throws Exception {
        started("<recoveryLog dir=\"log\"/>");
        CountDownLatch inBackup = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<SQLException> refused = new AtomicReference<>();
        CompletableFuture<DumpInfo> backup = CompletableFuture.supplyAsync(() -> {
            try {
                return vdb.backup("b1", "slow", null, (done, total, unit) -> {
                    inBackup.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
        assertTrue(inBackup.await(10, TimeUnit.SECONDS));
        try {
            vdb.disableBackend("b2");
        } catch (SQLException e) {
            refused.set(e);
        }
        assertTrue(vdb.listDumps().isEmpty(), "listing is not an action; the dump being written is not listed");
        release.countDown();
        backup.get(30, TimeUnit.SECONDS);
        assertEquals("55006", refused.get().getSQLState());
        assertTrue(refused.get().getMessage().contains("busy dumping backend b1 to slow"), refused.get().getMessage());
        assertEquals(BackendState.ENABLED, vdb.backendStates().get("b2"));
        vdb.disableBackend("b2"); // free again
        assertEquals(BackendState.DISABLED, vdb.backendStates().get("b2"));
    }

    @Test
    void withoutARecoveryLogBackendsCanStillBeSwitchedButNotDumped() throws Exception {
        started("");
        assertFalse(vdb.hasRecoveryLog());
        assertTrue(vdb.dumpDir().isEmpty());
        assertRefused("55000", "has no recovery log", () -> vdb.backup("b1", "x", null, null));
        assertRefused("55000", "has no recovery log", vdb::listDumps);
        assertRefused("55000", "has no recovery log", () -> vdb.checkpoint("x"));
        assertRefused("55000", "has no recovery log", vdb::purgeLog);
        assertRefused("55000", "has no recovery log", vdb::checkpoints);
        vdb.disableBackend("b2");
        assertEquals(BackendState.DISABLED, vdb.backendStates().get("b2"));
    }

    @Test
    void withoutARequestManagerEveryActionIsRefusedClearly() {
        VirtualDatabase bare = new VirtualDatabase("bare", new VirtualUsers(List.of()), new SessionSource() {
            @Override
            public Session openSession(String virtualUser) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void shutdown(Duration wait) {
            }
        }, dir);
        assertFalse(bare.hasRecoveryLog());
        List<ThrowingAction> actions = List.of(
                () -> bare.disableBackend("b1"), () -> bare.enableBackend("b1"), () -> bare.checkpoint("c"),
                bare::purgeLog, () -> bare.backup("b1", "d", null, null), () -> bare.restore("b1", "d", false, null),
                bare::listDumps, () -> bare.deleteDump("d"), bare::checkpoints, () -> bare.checkpointOf("b1"), bare::lastPosition);
        for (ThrowingAction action : actions) {
            assertRefused("55000", "virtual database bare has no request manager", action);
        }
        assertEquals(Map.of(), bare.backendStates());
    }
}
