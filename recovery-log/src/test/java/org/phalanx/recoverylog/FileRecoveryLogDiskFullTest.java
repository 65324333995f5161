package org.phalanx.recoverylog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.disk.LimitedDisk;

/**
 * The file log on a disk that fills up or fails (a {@link LimitedDisk} under its segment files):
 * what a failed write leaves (half a record, records whose fsync failed, a segment created for
 * the write) is undone, so the log stays readable and a refused entry is never in it.
 */
class FileRecoveryLogDiskFullTest extends DiskFullContract {
    @TempDir
    Path dir;
    private final LimitedDisk disk = new LimitedDisk();

    @Override
    RecoveryLog open() {
        return new FileRecoveryLog(dir.resolve("log"), FileRecoveryLog.DEFAULT_SEGMENT_SIZE, disk::open);
    }

    @Override
    void fill() {
        disk.fill();
    }

    @Override
    void free() {
        disk.free();
    }

    private long segmentBytes(int sequence) throws IOException {
        return Files.size(dir.resolve("log").resolve(SegmentFormat.fileName(sequence)));
    }

    private static void reopenedCleanly(Path log, List<LogEntry> expected) {
        try (FileRecoveryLog again = new FileRecoveryLog(log)) {
            assertTrue(again.tailRepair().isEmpty(), "nothing to repair: " + again.tailRepair());
            assertEquals(expected, RecoveryLogContract.readAll(again, 0));
        }
    }

    @Test
    void halfAWrittenRecordIsCutAwayAtOnce() throws IOException {
        RecoveryLog log = log();
        log.append(statement(1));
        long durable = segmentBytes(1);
        disk.leave(100); // the record is written in part, then the disk is full
        assertInstanceOf(LogFullException.class, refusal(log.appendAsync(statement(2))));
        assertEquals(durable, segmentBytes(1), "the partial record is gone");
        free();
        log.append(statement(3));
        log.close();
        reopenedCleanly(dir.resolve("log"), List.of(statement(1), statement(3)));
    }

    @Test
    void recordsWhoseFsyncFailedAreNotTrusted() throws IOException {
        RecoveryLog log = log();
        log.append(statement(1));
        long durable = segmentBytes(1);
        disk.failSyncs(true);
        Throwable e = refusal(log.appendAsync(statement(2)));
        assertInstanceOf(RecoveryLogException.class, e);
        assertFalse(e instanceof LogFullException, "an I/O error is not a full disk: " + e);
        assertEquals(durable, segmentBytes(1), "written but not synced: cut away");
        disk.failSyncs(false);
        log.append(statement(3));
        log.close();
        reopenedCleanly(dir.resolve("log"), List.of(statement(1), statement(3)));
    }

    @Test
    void aSegmentCreatedForARefusedWriteIsDeleted() {
        Path dirOfLog = dir.resolve("log");
        FileRecoveryLog log = new FileRecoveryLog(dirOfLog, 1024, disk::open); // one big entry per segment
        try {
            log.append(statement(1));
            disk.leave(SegmentFormat.MAGIC.length + 10); // the new segment is created, its record written in part
            assertInstanceOf(LogFullException.class, refusal(log.appendAsync(statement(2))));
            assertEquals(1, log.segmentCount());
            assertFalse(Files.exists(dirOfLog.resolve(SegmentFormat.fileName(2))));
            free();
            log.append(statement(3));
            assertEquals(2, log.segmentCount());
        } finally {
            log.close();
        }
        reopenedCleanly(dirOfLog, List.of(statement(1), statement(3)));
    }

    @Test
    void closedWhileFullTheLogStaysReadable() {
        RecoveryLog log = log();
        log.append(write(1, 7));
        disk.leave(100);
        refusal(log.appendAsync(commit(2, 7))); // a rollback is owed, and the disk stays full
        log.close();
        free();
        // the owed rollback is missing (the next start closes such transactions); nothing is damaged
        reopenedCleanly(dir.resolve("log"), List.of(write(1, 7)));
    }
}
