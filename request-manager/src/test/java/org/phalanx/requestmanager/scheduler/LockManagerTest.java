package org.phalanx.requestmanager.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLTransactionRollbackException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LockManagerTest {
    private final LockManager locks = new LockManager();

    @Test
    void aCycleIsBrokenWith40001() throws Exception {
        locks.acquire(1, List.of("a"), 5000);
        locks.acquire(2, List.of("b"), 5000);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> {
            try {
                locks.acquire(1, List.of("b"), 5000); // waits for 2
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        Thread.sleep(100);
        SQLTransactionRollbackException e = assertThrows(SQLTransactionRollbackException.class,
                () -> locks.acquire(2, List.of("a"), 5000));
        assertEquals("40001", e.getSQLState());
        locks.releaseAll(2); // the victim rolls back
        first.get(5, TimeUnit.SECONDS);
        assertTrue(locks.holdsAny(1));
    }

    @Test
    void waitingTooLongIs40001() throws Exception {
        locks.acquire(1, List.of(LockManager.ALL), 5000);
        SQLTransactionRollbackException e = assertThrows(SQLTransactionRollbackException.class,
                () -> locks.acquire(2, List.of("t"), 50));
        assertEquals("40001", e.getSQLState());
    }

    @Test
    void allConflictsWithAnyTableAndIndependentTablesDoNot() throws Exception {
        locks.acquire(1, List.of("a"), 1000);
        locks.acquire(2, List.of("b"), 1000); // independent
        assertThrows(SQLTransactionRollbackException.class, () -> locks.acquire(3, List.of(LockManager.ALL), 50));
        locks.releaseAll(1);
        locks.releaseAll(2);
        locks.acquire(3, List.of(LockManager.ALL), 50);
        assertThrows(SQLTransactionRollbackException.class, () -> locks.acquire(4, List.of("c"), 50));
    }
}
