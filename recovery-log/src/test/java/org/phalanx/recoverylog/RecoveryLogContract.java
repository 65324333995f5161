package org.phalanx.recoverylog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What every {@link RecoveryLog} store must do; each store's test class supplies {@link #open()}. */
abstract class RecoveryLogContract {
    /** Opens the store under test; called again to reopen the same store after a close. */
    abstract RecoveryLog open();

    /** How many entries each of the 16 threads appends in the concurrency test. */
    int entriesPerThread() {
        return 200;
    }

    private final List<RecoveryLog> opened = new ArrayList<>();

    RecoveryLog log() {
        RecoveryLog log = open();
        opened.add(log);
        return log;
    }

    @AfterEach
    void closeLogs() {
        opened.forEach(RecoveryLog::close);
    }

    static LogEntry entry(long position) {
        return switch ((int) (position % 4)) {
            case 0 -> LogEntry.statement(position, "user" + position % 3, "INSERT INTO t VALUES (?, ?, ?)",
                    Arrays.asList(position, "text " + position, position % 8 == 0 ? null : new byte[] {(byte) position}),
                    Set.of("db1", "db2"));
            case 1 -> LogEntry.write(position, position / 4, "user", "UPDATE t SET v = ? WHERE id = ?",
                    Arrays.asList(new java.math.BigDecimal(position + ".50"), position), Set.of("db1"));
            case 2 -> LogEntry.commit(position, position / 4, "user", Set.of("db1"));
            default -> LogEntry.rollback(position, position / 4, null, Set.of());
        };
    }

    static List<LogEntry> readAll(RecoveryLog log, long after) {
        List<LogEntry> all = new ArrayList<>();
        try (CloseableIterator<LogEntry> it = log.read(after)) {
            it.forEachRemaining(all::add);
        }
        return all;
    }

    @Test
    void concurrentAppendersShareGroupCommitsAndReadBackInOrder() throws Exception {
        RecoveryLog log = log();
        int threads = 16;
        int perThread = entriesPerThread();
        Object order = new Object(); // positions are handed over in the order they are given, as the scheduler does
        long[] next = {0};
        Map<Long, LogEntry> acknowledged = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        LogEntry e;
                        CompletableFuture<Void> durable;
                        synchronized (order) {
                            e = entry(++next[0]);
                            durable = log.appendAsync(e);
                        }
                        durable.join();
                        acknowledged.put(e.position(), e);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        int total = threads * perThread;
        assertEquals(total, acknowledged.size());
        assertEquals(total, log.lastPosition());
        AppendStatistics stats = log.appendStatistics();
        assertEquals(total, stats.entries());
        assertTrue(stats.groupCommits() < stats.entries(),
                "appenders should share durable writes: " + stats.groupCommits() + " groups for " + total + " entries");
        System.out.println(getClass().getSimpleName() + ": " + total + " entries in " + stats.groupCommits()
                + " group commits");
        List<LogEntry> back = readAll(log, 0);
        assertEquals(total, back.size());
        for (int i = 0; i < total; i++) {
            assertEquals(acknowledged.get(i + 1L), back.get(i));
        }
    }

    @Test
    void plainAppendIsDurableOnReturnAndRefusesPositionsThatDoNotIncrease() {
        RecoveryLog log = log();
        log.append(entry(5));
        assertEquals(5, log.lastPosition());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> log.append(entry(5)));
        assertTrue(e.getMessage().contains("5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> log.append(entry(3)));
        log.append(entry(9));
        assertEquals(List.of(entry(5), entry(9)), readAll(log, 0));
        assertEquals(List.of(entry(9)), readAll(log, 5));
        assertEquals(List.of(entry(9)), readAll(log, 7));
        assertEquals(List.of(), readAll(log, 9));
    }

    @Test
    void everyParameterTypeSurvivesTheStore() {
        RecoveryLog log = log();
        List<Object> values = ValueEncodingTest.everyValue();
        LogEntry e = new LogEntry(1, 42, "ünïcode", LogEntry.Kind.WRITE, "INSERT INTO \"t\" VALUES ('é', ?)",
                values, Set.of("backend one", "b,2"));
        log.append(e);
        LogEntry back = readAll(log, 0).get(0);
        assertEquals(e, back);
        for (int i = 0; i < values.size(); i++) {
            ValueEncodingTest.assertSame(values.get(i), back.params().get(i), "parameter " + i);
        }
    }

    @Test
    void entriesCheckpointsAndStatesSurviveReopening() {
        RecoveryLog log = open();
        for (long p = 1; p <= 50; p++) {
            log.append(entry(p));
        }
        log.setCheckpoint("backend db2 disabled", 20);
        log.setCheckpoint("dump 1", 30);
        log.putState("db1", "enabled");
        log.putState("db2", "disabled at 20");
        log.putState("gone", "x");
        log.putState("gone", null);
        log.close();
        assertThrows(IllegalStateException.class, () -> log.append(entry(51)));

        RecoveryLog again = log();
        assertEquals(50, again.lastPosition());
        assertEquals(Map.of("backend db2 disabled", 20L, "dump 1", 30L), again.checkpoints());
        assertEquals(Optional.of(30L), again.checkpoint("dump 1"));
        assertEquals(Optional.empty(), again.checkpoint("nope"));
        assertEquals(Map.of("db1", "enabled", "db2", "disabled at 20"), again.states());
        List<LogEntry> fromCheckpoint = readAll(again, again.checkpoint("backend db2 disabled").orElseThrow());
        assertEquals(30, fromCheckpoint.size());
        assertEquals(entry(21), fromCheckpoint.get(0));
        assertThrows(IllegalArgumentException.class, () -> again.append(entry(50)));
        again.append(entry(51));
        assertEquals(entry(51), readAll(again, 50).get(0));
    }

    @Test
    void purgeKeepsEverythingACheckpointNeeds() {
        RecoveryLog log = log();
        assertEquals(0, log.purge(), "no checkpoint: nothing may go");
        for (long p = 1; p <= 400; p++) {
            log.append(entry(p));
        }
        log.setCheckpoint("old", 150);
        log.setCheckpoint("new", 300);
        long removed = log.purge();
        assertTrue(removed > 0 && removed <= 150, "removed " + removed);
        assertEquals(removed, log.purgedThrough(), "positions 1..n were purged");
        assertEquals(250, readAll(log, 150).size(), "everything after the oldest checkpoint is kept");
        RecoveryLogException e = assertThrows(RecoveryLogException.class, () -> readAll(log, log.purgedThrough() - 1));
        assertTrue(e.getMessage().contains("purged"), e.getMessage());
        assertThrows(RecoveryLogException.class, () -> log.setCheckpoint("too old", log.purgedThrough() - 1));

        log.removeCheckpoint("old");
        assertEquals(Map.of("new", 300L), log.checkpoints());
        long more = log.purge();
        assertTrue(removed + more <= 300);
        assertEquals(100, readAll(log, 300).size());
        assertEquals(400, log.lastPosition());

        // everything purged that can be: the last position still never goes back
        log.setCheckpoint("new", 400);
        log.purge();
        assertEquals(400, log.lastPosition());
        assertThrows(IllegalArgumentException.class, () -> log.append(entry(400)));
        log.append(entry(401));
        assertEquals(List.of(entry(401)), readAll(log, 400));
    }

    @Test
    void aReadSeesTheEntriesDurableWhenItStarted() {
        RecoveryLog log = log();
        for (long p = 1; p <= 10; p++) {
            log.append(entry(p));
        }
        try (CloseableIterator<LogEntry> it = log.read(0)) {
            assertTrue(it.hasNext());
            assertEquals(entry(1), it.next());
            for (long p = 11; p <= 20; p++) {
                log.append(entry(p));
            }
            int rest = 0;
            while (it.hasNext()) {
                it.next();
                rest++;
            }
            assertEquals(9, rest);
            assertFalse(it.hasNext());
        }
        assertEquals(20, readAll(log, 0).size());
    }
}
