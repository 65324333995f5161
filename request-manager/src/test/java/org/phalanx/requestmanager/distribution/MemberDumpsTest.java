package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.FileRecoveryLog;

/** A member's dumps survive a restart, keep their log from being purged, and replace each other. */
class MemberDumpsTest {
    @TempDir
    Path dir;

    @Test
    void aReceivedDumpIsRestoredAfterARestartAndReplacesTheOneBefore() throws Exception {
        Path older;
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            MemberDumps dumps = new MemberDumps(log, dir.resolve("dumps"), "g-c1");
            older = dumps.newFile();
            Files.write(older, new byte[] {1});
            dumps.taken(10, older);
            assertEquals(10L, log.checkpoint(MemberDumps.CHECKPOINT).orElseThrow(), "the log after it is kept");

            dumps.received(42, new byte[] {4, 2});
            assertFalse(Files.exists(older), "the dump before is deleted");
        }
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            MemberDumps dumps = new MemberDumps(log, dir.resolve("dumps"), "g-c1");
            MemberDumps.Dump pending = dumps.pendingRestore();
            assertEquals(42, pending.position(), "a crash before the restore: it is still to be restored");
            assertArrayEquals(new byte[] {4, 2}, Files.readAllBytes(pending.file()));
            assertEquals(pending, dumps.current(), "and it is what this member's snapshots carry");
            assertEquals(42L, log.checkpoint(MemberDumps.CHECKPOINT).orElseThrow());
            dumps.restored();
            assertNull(dumps.pendingRestore());
        }
    }
}
