package org.phalanx.requestmanager.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLTransactionRollbackException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The scheduler's locks. "Is blocked" is probed with a short timeout on a lock whose holders do
 * not release it meanwhile: a correct lock manager must then refuse with 40001 whatever the
 * machine's speed; one that wrongly grants the lock grants it at once.
 */
class LockManagerTest {
    private static final long BLOCKED = 50;
    private static final long LONG = 10_000;

    private final LockManager locks = new LockManager();

    private static Access reads(String... tables) {
        return Access.of(Set.of(tables), Set.of());
    }

    private static Access writes(String... tables) {
        return Access.writing(Set.of(tables));
    }

    /** What INSERT INTO target SELECT ... FROM source locks. */
    private static Access insertSelect(String target, String source) {
        return Access.of(Set.of(source), Set.of(target));
    }

    private static void assertRefused(Executable acquire) {
        SQLTransactionRollbackException e = assertThrows(SQLTransactionRollbackException.class, acquire);
        assertEquals("40001", e.getSQLState());
    }

    private CompletableFuture<Void> acquireAsync(long tx, Access access) {
        return CompletableFuture.runAsync(() -> {
            try {
                locks.acquire(tx, access, LONG);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
    }

    private void awaitWaiting(long tx) throws InterruptedException {
        while (!locks.isWaiting(tx)) {
            Thread.sleep(1);
        }
    }

    @Test
    void readersOfATableDoNotBlockEachOther() throws Exception {
        locks.acquire(1, insertSelect("work_a", "items"), BLOCKED);
        locks.acquire(2, insertSelect("work_b", "items"), BLOCKED);
        locks.acquire(3, reads("items"), BLOCKED);
        assertTrue(locks.holdsAny(1) && locks.holdsAny(2) && locks.holdsAny(3));
    }

    @Test
    void aWriterWaitsForEveryReaderAndReadersWaitForAWriter() throws Exception {
        locks.acquire(1, insertSelect("work_a", "items"), LONG);
        locks.acquire(2, insertSelect("work_b", "items"), LONG);
        assertRefused(() -> locks.acquire(3, writes("items"), BLOCKED));
        locks.releaseAll(1);
        assertRefused(() -> locks.acquire(3, writes("items"), BLOCKED)); // 2 still reads it
        CompletableFuture<Void> writer = acquireAsync(3, writes("items"));
        awaitWaiting(3);
        locks.releaseAll(2);
        writer.get(LONG, TimeUnit.MILLISECONDS);
        assertRefused(() -> locks.acquire(4, reads("items"), BLOCKED));
        assertRefused(() -> locks.acquire(4, insertSelect("work_c", "items"), BLOCKED));
        locks.acquire(4, writes("work_c"), BLOCKED); // what it writes is free
    }

    @Test
    void theSourceOfOneInsertSelectMayBeWrittenOnlyWhenNoOneReadsIt() throws Exception {
        locks.acquire(1, insertSelect("work_a", "items"), LONG);
        assertRefused(() -> locks.acquire(2, writes("work_a"), BLOCKED)); // its target is exclusive
        assertRefused(() -> locks.acquire(2, reads("work_a"), BLOCKED));
        assertRefused(() -> locks.acquire(2, insertSelect("items", "work_a"), BLOCKED));
    }

    @Test
    void aReaderUpgradesOnceItIsTheOnlyHolder() throws Exception {
        locks.acquire(1, insertSelect("work_a", "items"), LONG);
        locks.acquire(1, writes("items"), BLOCKED); // alone: at once
        assertRefused(() -> locks.acquire(2, reads("items"), BLOCKED));
        locks.acquire(1, reads("items"), BLOCKED); // holding it exclusively covers reading it
        locks.releaseAll(1);
        assertFalse(locks.holdsAny(1));
        locks.acquire(2, reads("items"), BLOCKED);
    }

    @Test
    void anUpgradeWaitsForTheOtherReaders() throws Exception {
        locks.acquire(1, reads("items"), LONG);
        locks.acquire(2, reads("items"), LONG);
        CompletableFuture<Void> upgrade = acquireAsync(1, writes("items"));
        awaitWaiting(1);
        locks.releaseAll(2);
        upgrade.get(LONG, TimeUnit.MILLISECONDS);
        assertRefused(() -> locks.acquire(2, reads("items"), BLOCKED));
    }

    @Test
    void twoReadersUpgradingTheSameTableAreADeadlock() throws Exception {
        locks.acquire(1, insertSelect("work_a", "items"), LONG);
        locks.acquire(2, insertSelect("work_b", "items"), LONG);
        CompletableFuture<Void> first = acquireAsync(1, writes("items")); // waits for 2
        awaitWaiting(1);
        SQLTransactionRollbackException e = assertThrows(SQLTransactionRollbackException.class,
                () -> locks.acquire(2, writes("items"), LONG));
        assertEquals("40001", e.getSQLState());
        assertTrue(e.getMessage().contains("deadlock"), e.getMessage()); // refused at once, not timed out
        locks.releaseAll(2); // the victim rolls back
        first.get(LONG, TimeUnit.MILLISECONDS);
    }

    @Test
    void aCycleThroughSharedLocksIsBrokenWith40001() throws Exception {
        locks.acquire(1, insertSelect("a", "items"), LONG);
        locks.acquire(2, insertSelect("b", "items"), LONG);
        CompletableFuture<Void> first = acquireAsync(1, reads("b")); // waits for 2, which writes b
        awaitWaiting(1);
        SQLTransactionRollbackException e = assertThrows(SQLTransactionRollbackException.class,
                () -> locks.acquire(2, reads("a"), LONG));
        assertEquals("40001", e.getSQLState());
        assertTrue(e.getMessage().contains("deadlock"), e.getMessage());
        locks.releaseAll(2);
        first.get(LONG, TimeUnit.MILLISECONDS);
        assertTrue(locks.holdsAny(1));
    }

    @Test
    void aCycleIsBrokenWith40001() throws Exception {
        locks.acquire(1, writes("a"), LONG);
        locks.acquire(2, writes("b"), LONG);
        CompletableFuture<Void> first = acquireAsync(1, writes("b")); // waits for 2
        awaitWaiting(1);
        SQLTransactionRollbackException e = assertThrows(SQLTransactionRollbackException.class,
                () -> locks.acquire(2, writes("a"), LONG));
        assertEquals("40001", e.getSQLState());
        locks.releaseAll(2); // the victim rolls back
        first.get(LONG, TimeUnit.MILLISECONDS);
        assertTrue(locks.holdsAny(1));
    }

    @Test
    void waitingTooLongIs40001() throws Exception {
        locks.acquire(1, Access.EVERYTHING, LONG);
        SQLTransactionRollbackException e = assertThrows(SQLTransactionRollbackException.class,
                () -> locks.acquire(2, writes("t"), BLOCKED));
        assertEquals("40001", e.getSQLState());
        assertTrue(e.getMessage().contains("waited more than"), e.getMessage());
    }

    @Test
    void aReaderWaitingTooLongForAWriterIs40001() throws Exception {
        locks.acquire(1, writes("items"), LONG);
        assertRefused(() -> locks.acquire(2, reads("items"), BLOCKED));
        assertFalse(locks.holdsAny(2)); // a refused request leaves nothing behind
        assertFalse(locks.isWaiting(2));
    }

    @Test
    void allConflictsWithAnyTableAndIndependentTablesDoNot() throws Exception {
        locks.acquire(1, writes("a"), LONG);
        locks.acquire(2, writes("b"), LONG); // independent
        assertRefused(() -> locks.acquire(3, Access.EVERYTHING, BLOCKED));
        locks.releaseAll(1);
        locks.releaseAll(2);
        locks.acquire(3, Access.EVERYTHING, BLOCKED);
        assertRefused(() -> locks.acquire(4, writes("c"), BLOCKED));
        assertRefused(() -> locks.acquire(4, reads("c"), BLOCKED));
    }

    @Test
    void allWaitsForReadersToo() throws Exception {
        locks.acquire(1, reads("items"), LONG);
        assertRefused(() -> locks.acquire(2, Access.EVERYTHING, BLOCKED));
        CompletableFuture<Void> all = acquireAsync(2, Access.EVERYTHING);
        awaitWaiting(2);
        locks.releaseAll(1);
        all.get(LONG, TimeUnit.MILLISECONDS);
    }

    @Test
    void accessIsNormalised() {
        Access a = Access.of(List.of("items", "work"), List.of("work"));
        assertEquals(Set.of("items"), a.reads());
        assertEquals(Set.of("work"), a.writes());
        Access readThenWritten = Access.unionOf(List.of(a, writes("items")));
        assertEquals(Set.of("items", "work"), readThenWritten.writes());
        assertTrue(readThenWritten.reads().isEmpty());
        assertEquals(Access.EVERYTHING, Access.unionOf(List.of(a, Access.EVERYTHING)));
    }

    /** The whole database read shared (a SERIALIZABLE transaction over SQLite): readers share it, no one writes. */
    @Test
    void theWholeDatabaseReadSharedLetsReadersInAndNoWriter() throws Exception {
        locks.acquire(1, reads(LockManager.ALL), BLOCKED);
        locks.acquire(2, reads(LockManager.ALL), BLOCKED);
        locks.acquire(3, reads("items"), BLOCKED);
        assertRefused(() -> locks.acquire(4, writes("items"), BLOCKED));
        assertRefused(() -> locks.acquire(4, Access.EVERYTHING, BLOCKED));
        locks.releaseAll(1);
        locks.releaseAll(2);
        locks.acquire(4, writes("other"), BLOCKED);
        assertRefused(() -> locks.acquire(5, reads(LockManager.ALL), BLOCKED)); // 4 writes a table
    }

    /** Writers first: a new reader waits behind a waiting writer, so overlapping readers cannot starve it. */
    @Test
    void aNewReaderWaitsBehindAWaitingWriter() throws Exception {
        locks.acquire(1, reads("acc"), LONG);
        CompletableFuture<Void> writer = acquireAsync(2, writes("acc"));
        awaitWaiting(2);
        assertRefused(() -> locks.acquire(3, reads("acc"), BLOCKED));
        locks.acquire(1, reads("acc"), BLOCKED); // a reader already holding it reads on
        locks.releaseAll(1);
        writer.get(LONG, TimeUnit.MILLISECONDS);
    }

    /**
     * An older reader is not held back by a newer waiting writer: TPC-C's livelock, where a
     * New-Order (1) holding {@code customer} waits to read {@code warehouse}, held by a Payment (2)
     * that then wants to write {@code customer}: a cycle, so the Payment is refused; run again (3),
     * it waits to write {@code warehouse} and must not get it before the New-Order reads it.
     */
    @Test
    void anOlderReaderIsNotHeldBackByANewerWaitingWriter() throws Exception {
        locks.acquire(1, reads("customer"), LONG);
        locks.acquire(2, writes("warehouse"), LONG);
        locks.acquire(2, reads("customer"), LONG);
        CompletableFuture<Void> newOrder = acquireAsync(1, reads("warehouse"));
        awaitWaiting(1);
        assertRefused(() -> locks.acquire(2, writes("customer"), LONG)); // closes the cycle
        CompletableFuture<Void> paymentAgain = acquireAsync(3, writes("warehouse"));
        locks.releaseAll(2);
        newOrder.get(LONG, TimeUnit.MILLISECONDS); // not behind 3, though 3 waits to write warehouse
        assertFalse(paymentAgain.isDone());
        locks.releaseAll(1);
        paymentAgain.get(LONG, TimeUnit.MILLISECONDS);
    }

    /** Key-level conflicts: rows of a table lock apart; a row conflicts with itself and with its table. */
    @Test
    void rowsOfATableLockApartAndConflictWithTheirTable() throws Exception {
        locks.acquire(1, writes(RowKeys.of("acc", 1)), BLOCKED);
        locks.acquire(2, writes(RowKeys.of("acc", 2)), BLOCKED); // another row
        assertRefused(() -> locks.acquire(3, writes(RowKeys.of("acc", "1")), BLOCKED)); // the same row
        assertRefused(() -> locks.acquire(3, writes("acc"), BLOCKED)); // the whole table
        assertRefused(() -> locks.acquire(3, reads("acc"), BLOCKED)); // a read of the table
        locks.acquire(3, writes(RowKeys.of("other", 1)), BLOCKED);
        locks.releaseAll(1);
        locks.releaseAll(2);
        locks.acquire(4, reads("acc"), BLOCKED);
        assertRefused(() -> locks.acquire(5, writes(RowKeys.of("acc", 7)), BLOCKED)); // the table is read
        locks.releaseAll(4);
        locks.acquire(5, writes(RowKeys.of("acc", 7)), BLOCKED);
        assertRefused(() -> locks.acquire(6, Access.EVERYTHING, BLOCKED));
    }

    /** Composite keys: a key prefix locks every row it starts, and only those. */
    @Test
    void aKeyPrefixConflictsWithTheRowsItStartsOnly() throws Exception {
        String line = RowKeys.of("line", List.of(1, 2, 3, 1));
        locks.acquire(1, writes(RowKeys.prefix("line", List.of(1, 2, 3))), BLOCKED);
        assertRefused(() -> locks.acquire(2, writes(line), BLOCKED)); // a row of the prefix
        assertRefused(() -> locks.acquire(2, writes(RowKeys.prefix("line", List.of(1, 2))), BLOCKED)); // a shorter one
        locks.acquire(2, writes(RowKeys.of("line", List.of(1, 2, 33, 1))), BLOCKED); // 33 does not start with 3
        locks.acquire(2, writes(RowKeys.prefix("line", List.of(1, 3))), BLOCKED);
        locks.acquire(2, writes(RowKeys.of("line", List.of(1, 2))), BLOCKED); // a shorter key is not under it
        locks.releaseAll(1);
        locks.acquire(3, writes(line), BLOCKED);
    }
}
