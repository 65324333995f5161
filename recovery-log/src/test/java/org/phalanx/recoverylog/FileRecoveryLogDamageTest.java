package org.phalanx.recoverylog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Crashes, torn writes and corruption in the file log. */
class FileRecoveryLogDamageTest {
    @TempDir
    Path dir;

    private List<Path> segments() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".rlog")).sorted().toList();
        }
    }

    private void write(long from, long to, long segmentSize) {
        try (FileRecoveryLog log = new FileRecoveryLog(dir, segmentSize)) {
            for (long p = from; p <= to; p++) {
                log.append(RecoveryLogContract.entry(p));
            }
        }
    }

    private static List<Long> positions(RecoveryLog log) {
        List<Long> result = new ArrayList<>();
        RecoveryLogContract.readAll(log, 0).forEach(e -> result.add(e.position()));
        return result;
    }

    @Test
    void aRecordCutShortIsTruncatedAwayAndReported() throws IOException {
        write(1, 10, FileRecoveryLog.DEFAULT_SEGMENT_SIZE);
        Path segment = segments().get(0);
        long size = Files.size(segment);
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.setLength(size - 5); // the last record lost its last 5 bytes
        }
        try (FileRecoveryLog log = new FileRecoveryLog(dir)) {
            TailRepair repair = log.tailRepair().orElseThrow();
            assertEquals(segment, repair.file());
            assertTrue(repair.reason().contains("extends past the end"), repair.reason());
            assertEquals(size - 5 - repair.offset(), repair.bytesRemoved());
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), positions(log));
            assertEquals(9, log.lastPosition());
            log.append(RecoveryLogContract.entry(10)); // position 10 was never acknowledged: it may be reused
        }
        try (FileRecoveryLog log = new FileRecoveryLog(dir)) {
            assertTrue(log.tailRepair().isEmpty(), "the repair is done once");
            assertEquals(10, positions(log).size());
        }
    }

    @Test
    void anIncompleteHeaderAndAZeroFilledTailAreTornTooButNotAnythingElse() throws IOException {
        write(1, 5, FileRecoveryLog.DEFAULT_SEGMENT_SIZE);
        Path segment = segments().get(0);
        Files.write(segment, new byte[] {0, 0, 1}, StandardOpenOption.APPEND);
        try (FileRecoveryLog log = new FileRecoveryLog(dir)) {
            assertTrue(log.tailRepair().orElseThrow().reason().contains("incomplete record header"));
            assertEquals(5, positions(log).size());
        }
        Files.write(segment, new byte[4096], StandardOpenOption.APPEND); // a power loss can leave zeros
        try (FileRecoveryLog log = new FileRecoveryLog(dir)) {
            assertEquals(4096, log.tailRepair().orElseThrow().bytesRemoved());
            assertEquals(5, positions(log).size());
        }
        byte[] garbage = new byte[64];
        garbage[20] = 7;
        Files.write(segment, garbage, StandardOpenOption.APPEND); // not a cut-short write: refuse
        LogCorruptedException e = assertThrows(LogCorruptedException.class, () -> new FileRecoveryLog(dir));
        assertEquals(segment, e.file());
    }

    @Test
    void aCorruptRecordInTheMiddleIsAnErrorNamingFileAndOffset() throws IOException {
        write(1, 10, FileRecoveryLog.DEFAULT_SEGMENT_SIZE);
        Path segment = segments().get(0);
        long offset = recordOffset(segment, 4); // the 5th record
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.seek(offset + 12 + 3); // inside its payload
            int b = f.read();
            f.seek(offset + 12 + 3);
            f.write(b ^ 0x40);
        }
        LogCorruptedException e = assertThrows(LogCorruptedException.class, () -> new FileRecoveryLog(dir));
        assertEquals(segment, e.file());
        assertEquals(offset, e.offset());
        assertTrue(e.getMessage().contains(segment.toString()) && e.getMessage().contains("offset " + offset)
                && e.getMessage().contains("CRC"), e.getMessage());
    }

    @Test
    void aDamagedLengthFieldIsCorruption() throws IOException {
        write(1, 10, FileRecoveryLog.DEFAULT_SEGMENT_SIZE);
        Path segment = segments().get(0);
        long offset = recordOffset(segment, 2);
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.seek(offset);
            f.writeInt(100_000); // a length claiming to reach past the end, but its complement disagrees
        }
        LogCorruptedException e = assertThrows(LogCorruptedException.class, () -> new FileRecoveryLog(dir));
        assertEquals(offset, e.offset());
        assertTrue(e.getMessage().contains("length"), e.getMessage());
    }

    @Test
    void damageInASealedSegmentIsNeverTakenForATornTail() throws IOException {
        write(1, 60, 1024);
        List<Path> segments = segments();
        assertTrue(segments.size() > 2, "rolled into " + segments.size());
        Path first = segments.get(0);
        try (RandomAccessFile f = new RandomAccessFile(first.toFile(), "rw")) {
            f.setLength(f.length() - 3);
        }
        LogCorruptedException e = assertThrows(LogCorruptedException.class, () -> new FileRecoveryLog(dir, 1024));
        assertEquals(first, e.file());
        assertTrue(e.getMessage().contains("sealed segment"), e.getMessage());
    }

    @Test
    void aMissingSegmentIsReported() throws IOException {
        write(1, 60, 1024);
        List<Path> segments = segments();
        Files.delete(segments.get(1));
        LogCorruptedException e = assertThrows(LogCorruptedException.class, () -> new FileRecoveryLog(dir, 1024));
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void purgeDeletesWholeSegmentsOnly() throws IOException {
        write(1, 100, 1024);
        int before = segments().size();
        try (FileRecoveryLog log = new FileRecoveryLog(dir, 1024)) {
            log.setCheckpoint("c", 50);
            long removed = log.purge();
            assertTrue(removed > 0 && removed <= 50, "removed " + removed);
            assertTrue(segments().size() < before);
            assertEquals(log.segmentCount(), segments().size());
            List<Long> left = new ArrayList<>();
            RecoveryLogContract.readAll(log, log.purgedThrough()).forEach(e -> left.add(e.position()));
            assertEquals(removed + 1, left.get(0), "the log now starts right after what was purged");
            assertEquals(100, left.get(left.size() - 1));
        }
        try (FileRecoveryLog log = new FileRecoveryLog(dir, 1024)) {
            assertEquals(100, log.lastPosition());
            assertTrue(log.purgedThrough() > 0);
        }
    }

    @Test
    void aDirectoryIsUsedByOneLogAtATime() {
        try (FileRecoveryLog log = new FileRecoveryLog(dir)) {
            RecoveryLogException e = assertThrows(RecoveryLogException.class, () -> new FileRecoveryLog(dir));
            assertTrue(e.getMessage().contains("already open"), e.getMessage());
        }
        new FileRecoveryLog(dir).close();
    }

    @Test
    void aDamagedMetadataFileIsReported() throws IOException {
        try (FileRecoveryLog log = new FileRecoveryLog(dir)) {
            log.setCheckpoint("c", 3);
        }
        Path metadata = dir.resolve("metadata");
        Files.writeString(metadata, Files.readString(metadata).replace("checkpoint c 3", "checkpoint c 4"));
        LogCorruptedException e = assertThrows(LogCorruptedException.class, () -> new FileRecoveryLog(dir));
        assertEquals(metadata, e.file());
    }

    /** A child JVM appends as fast as it can and prints each acknowledged position; we kill -9 it. */
    @Test
    void killDashNineLosesNothingAcknowledged() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                Appender.class.getName(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<Long> acknowledged = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                acknowledged.add(Long.parseLong(line));
                if (acknowledged.size() == 300) {
                    child.destroyForcibly(); // SIGKILL: no shutdown hook, no close
                    break;
                }
            }
        }
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertEquals(300, acknowledged.size(), "the child died before appending 300 entries");
        try (FileRecoveryLog log = new FileRecoveryLog(dir, 4096)) {
            List<Long> present = positions(log);
            assertTrue(present.containsAll(acknowledged), "every acknowledged entry survives");
            for (int i = 0; i < present.size(); i++) {
                assertEquals(i + 1L, present.get(i));
            }
            System.out.println("kill -9: " + acknowledged.size() + " acknowledged, " + present.size()
                    + " present, repair: " + log.tailRepair().map(TailRepair::toString).orElse("none"));
        }
    }

    /** The child process of {@link #killDashNineLosesNothingAcknowledged}. */
    public static final class Appender {
        public static void main(String[] args) {
            RecoveryLog log = new FileRecoveryLog(Path.of(args[0]), 4096);
            Object order = new Object();
            long[] next = {0};
            for (int t = 0; t < 4; t++) {
                new Thread(() -> {
                    while (true) {
                        long p;
                        java.util.concurrent.CompletableFuture<Void> f;
                        synchronized (order) {
                            p = ++next[0];
                            f = log.appendAsync(LogEntry.statement(p, "u", "INSERT INTO t VALUES (?)",
                                    List.of("x".repeat((int) (p % 700))), Set.of("a")));
                        }
                        f.join();
                        synchronized (System.out) {
                            System.out.println(p);
                            System.out.flush();
                        }
                    }
                }).start();
            }
        }
    }

    @Test
    void readingFindsCorruptionThatAppearedAfterOpening() throws IOException {
        write(1, 10, FileRecoveryLog.DEFAULT_SEGMENT_SIZE);
        try (FileRecoveryLog log = new FileRecoveryLog(dir)) {
            Path segment = segments().get(0);
            long offset = recordOffset(segment, 6);
            try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
                f.seek(offset + 20);
                f.write(0x55);
            }
            LogCorruptedException e = assertThrows(LogCorruptedException.class, () -> RecoveryLogContract.readAll(log, 0));
            assertEquals(offset, e.offset());
        }
    }

    /** The offset of the {@code index}-th record (from 0) of a segment. */
    private static long recordOffset(Path segment, int index) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "r")) {
            long offset = SegmentFormat.MAGIC.length;
            for (int i = 0; i < index; i++) {
                f.seek(offset);
                offset += 12 + f.readInt();
            }
            return offset;
        }
    }

}
