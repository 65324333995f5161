package org.phalanx.requestmanager.backend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.scheduler.RowKeys;

/**
 * One backend's ordered queue with tasks that only read a table (INSERT ... SELECT from it) and
 * tasks that write it. Tasks are plain callables held on latches, so who waits for whom is
 * seen without timing: a task that must run concurrently with a held one is awaited while the
 * held one is still held; the order of starts and ends is checked afterwards.
 */
class BackendQueueTest {
    private static final long LONG = 10;

    @TempDir
    Path dir;
    private Backend backend;
    private final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        backend = new Backend(BackendConfig.builder("b", "jdbc:sqlite:" + dir.resolve("b.db")).poolSize(4).build(), Duration.ofSeconds(5), b -> { });
        backend.enable();
    }

    @AfterEach
    void stop() {
        backend.close(Duration.ofSeconds(5));
    }

    /** What INSERT INTO target SELECT ... FROM source reads and writes. */
    private static Access insertSelect(String target, String source) {
        return Access.of(Set.of(source), Set.of(target));
    }

    private CompletableFuture<Void> task(String name, Access access, CountDownLatch hold) {
        return backend.enqueue(access, null, 0, () -> {
            events.add("start " + name);
            if (hold != null) {
                assertTrue(hold.await(LONG, TimeUnit.SECONDS));
            }
            events.add("end " + name);
            return null;
        });
    }

    private void assertBefore(String first, String then) {
        int a = events.indexOf(first);
        int b = events.indexOf(then);
        assertTrue(a >= 0 && b >= 0 && a < b, first + " before " + then + " in " + events);
    }

    @Test
    void twoInsertSelectsFromOneTableRunTogetherAndALaterWriteOfItWaitsForBoth() throws Exception {
        CountDownLatch holdFirst = new CountDownLatch(1);
        CompletableFuture<Void> first = task("insert-select a", insertSelect("work_a", "items"), holdFirst);
        CompletableFuture<Void> second = task("insert-select b", insertSelect("work_b", "items"), null);
        second.get(LONG, TimeUnit.SECONDS); // finished while the first is still running: not queued behind it
        assertFalse(first.isDone());

        CompletableFuture<Void> update = task("update items", Access.writing(Set.of("items")), null);
        CompletableFuture<Void> third = task("insert-select c", insertSelect("work_c", "items"), null);
        task("independent", Access.writing(Set.of("other")), null).get(LONG, TimeUnit.SECONDS);
        assertFalse(update.isDone(), "the write of items waits for the insert-select still reading it");
        assertFalse(third.isDone(), "a read of items queued after its write waits for that write");

        // what reads see meanwhile: no write of items or work_b pending; work_a's still runs
        assertFalse(backend.caughtUp(Set.of("items")));
        assertTrue(backend.caughtUp(Set.of("work_b")));
        assertFalse(backend.caughtUp(Set.of("work_a")));

        holdFirst.countDown();
        third.get(LONG, TimeUnit.SECONDS);
        update.get(LONG, TimeUnit.SECONDS);
        assertBefore("end insert-select a", "start update items");
        assertBefore("end insert-select b", "start update items");
        assertBefore("end update items", "start insert-select c");
    }

    @Test
    void writesOfATableRunInQueueOrderWithTheReadsBetweenThemInTheirPlace() throws Exception {
        CountDownLatch holdWrite = new CountDownLatch(1);
        CountDownLatch holdRead = new CountDownLatch(1);
        task("write 1", Access.writing(Set.of("items")), holdWrite);
        CompletableFuture<Void> read = task("insert-select", insertSelect("work_a", "items"), holdRead);
        CompletableFuture<Void> write2 = task("write 2", Access.writing(Set.of("items")), null);
        CompletableFuture<Void> write3 = task("write 3", Access.writing(Set.of("items", "work_z")), null);
        holdWrite.countDown();
        while (!events.contains("start insert-select")) {
            Thread.sleep(1);
        }
        assertFalse(write2.isDone(), "the second write waits for the read queued before it");
        holdRead.countDown();
        write3.get(LONG, TimeUnit.SECONDS);
        read.get(LONG, TimeUnit.SECONDS);
        assertBefore("end write 1", "start insert-select");
        assertBefore("end insert-select", "start write 2");
        assertBefore("end write 2", "start write 3");
    }

    @Test
    void theWholeDatabaseWaitsForReadersAndEverythingWaitsForIt() throws Exception {
        CountDownLatch holdRead = new CountDownLatch(1);
        CountDownLatch holdAll = new CountDownLatch(1);
        CompletableFuture<Void> read = task("insert-select", insertSelect("work_a", "items"), holdRead);
        CompletableFuture<Void> all = task("checkpoint", Access.EVERYTHING, holdAll);
        CompletableFuture<Void> after = task("insert-select after", insertSelect("work_b", "items"), null);
        CompletableFuture<Void> soFar = backend.queuedSoFar();
        assertFalse(backend.caughtUp(Set.of(org.phalanx.requestmanager.scheduler.LockManager.ALL)));
        holdRead.countDown();
        read.get(LONG, TimeUnit.SECONDS);
        while (!events.contains("start checkpoint")) {
            Thread.sleep(1);
        }
        assertFalse(after.isDone());
        assertFalse(soFar.isDone());
        holdAll.countDown();
        soFar.get(LONG, TimeUnit.SECONDS);
        assertTrue(all.isDone() && after.isDone(), "queued so far means every task queued before");
        assertBefore("end insert-select", "start checkpoint");
        assertBefore("end checkpoint", "start insert-select after");
        assertTrue(backend.caughtUp(Set.of(org.phalanx.requestmanager.scheduler.LockManager.ALL)));
    }

    @Test
    void queuedSoFarCoversReadersThatNoWriterWaitsFor() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        task("insert-select a", insertSelect("work_a", "items"), hold);
        task("insert-select b", insertSelect("work_b", "items"), null).get(LONG, TimeUnit.SECONDS);
        CompletableFuture<Void> soFar = backend.queuedSoFar();
        assertTrue(backend.caughtUp(Set.of("items")), "no write of items is queued");
        assertFalse(soFar.isDone(), "the first insert-select still runs");
        hold.countDown();
        soFar.get(LONG, TimeUnit.SECONDS);
    }

    /**
     * Rows of one table (key-level conflicts): writes of different rows run together, a write of
     * the same row waits, a write of the whole table waits for every row's writer, and a later
     * row write or read of the table waits for it.
     */
    @Test
    void writesOfDifferentRowsRunTogetherAndTheWholeTableOrdersAgainstThemAll() throws Exception {
        Access row1 = Access.writing(Set.of(RowKeys.of("acc", 1)));
        Access row2 = Access.writing(Set.of(RowKeys.of("acc", 2L)));
        CountDownLatch holdRow1 = new CountDownLatch(1);
        CompletableFuture<Void> first = task("row 1", row1, holdRow1);
        task("row 2", row2, null).get(LONG, TimeUnit.SECONDS); // another row: not behind row 1
        CompletableFuture<Void> again = task("row 1 again", Access.writing(Set.of(RowKeys.of("acc", "1"))), null);
        CompletableFuture<Void> table = task("table", Access.writing(Set.of("acc")), null);
        CompletableFuture<Void> after = task("row 2 after table", row2, null);
        CompletableFuture<Void> read = task("read acc", insertSelect("work", "acc"), null);
        assertFalse(backend.caughtUp(Set.of("acc")), "a write of a row of acc is pending");
        assertFalse(again.isDone() || table.isDone() || after.isDone() || read.isDone());
        holdRow1.countDown();
        CompletableFuture.allOf(first, again, table, after, read).get(LONG, TimeUnit.SECONDS);
        assertBefore("end row 1", "start row 1 again");
        assertBefore("end row 1 again", "start table");
        assertBefore("end table", "start row 2 after table");
        assertBefore("end table", "start read acc");
        assertTrue(backend.caughtUp(Set.of("acc")));
    }

    /** A key prefix in a backend's queue: after the rows it starts that came before, before those after it; not others. */
    @Test
    void aKeyPrefixOrdersAgainstTheRowsItStartsOnly() throws Exception {
        Access row = Access.writing(Set.of(RowKeys.of("line", List.of(1, 2, 3, 1))));
        Access prefix = Access.writing(Set.of(RowKeys.prefix("line", List.of(1, 2, 3))));
        CountDownLatch holdRow = new CountDownLatch(1);
        CompletableFuture<Void> first = task("row", row, holdRow);
        CompletableFuture<Void> lines = task("prefix", prefix, null);
        task("other order", Access.writing(Set.of(RowKeys.of("line", List.of(1, 2, 4, 1)))), null)
                .get(LONG, TimeUnit.SECONDS);
        CompletableFuture<Void> later = task("row after prefix", Access.writing(Set.of(RowKeys.of("line", List.of(1, 2, 3, 2)))), null);
        assertFalse(lines.isDone() || later.isDone());
        holdRow.countDown();
        CompletableFuture.allOf(first, lines, later).get(LONG, TimeUnit.SECONDS);
        assertBefore("end row", "start prefix");
        assertBefore("end prefix", "start row after prefix");
    }
}
