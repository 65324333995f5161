package org.phalanx.controller.vdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.FileRecoveryLog;

/** What a dump cut short by a crash leaves (a hidden temporary file, the checkpoint of no dump) is cleared at start. */
class InterruptedDumpsTest {
    @TempDir
    Path dir;

    @Test
    void theCheckpointOfAMissingDumpIsReleasedAndItsTemporaryFileDeleted() throws Exception {
        Path dumps = Files.createDirectories(dir.resolve("dumps"));
        Files.writeString(dumps.resolve("nightly"), "a dump");
        Path unfinished = Files.writeString(dumps.resolve(".cut-short.0f3a.tmp"), "half a dump");
        Path beside = Files.writeString(dumps.resolve(".sqlite-restore123.tmp-wal"), "");
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            log.setCheckpoint("dump-nightly", 10);
            log.setCheckpoint("dump-cut-short", 20);
            log.setCheckpoint("mine", 5);
            InterruptedDumps.clear("vdb", log, dumps);
            assertEquals(Map.of("dump-nightly", 10L, "mine", 5L), log.checkpoints());
        }
        assertFalse(Files.exists(unfinished));
        assertFalse(Files.exists(beside));
        assertTrue(Files.exists(dumps.resolve("nightly")));
    }

    @Test
    void withoutTheDumpFolderNothingIsReleased() throws Exception {
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            log.setCheckpoint("dump-nightly", 10);
            InterruptedDumps.clear("vdb", log, dir.resolve("not-mounted"));
            assertEquals(Map.of("dump-nightly", 10L), log.checkpoints());
        }
    }
}
