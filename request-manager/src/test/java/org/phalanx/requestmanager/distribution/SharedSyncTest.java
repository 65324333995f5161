package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** Read barriers share sync entries: each is served by one appended after it began, one in flight at a time. */
class SharedSyncTest {
    private final List<CompletableFuture<Object>> appended = new ArrayList<>();
    private final SharedSync sync = new SharedSync(() -> {
        CompletableFuture<Object> entry = new CompletableFuture<>();
        appended.add(entry);
        return entry;
    });

    @Test
    void barriersArrivingWhileAnEntryIsInFlightShareTheNextOne() {
        CompletableFuture<Void> first = sync.await();
        CompletableFuture<Void> second = sync.await();
        CompletableFuture<Void> third = sync.await();
        assertEquals(1, appended.size(), "one entry in flight");
        assertSame(second, third);

        appended.get(0).complete(null);
        assertTrue(first.isDone());
        assertFalse(second.isDone(), "the entry in flight may have been appended before the second began");
        assertEquals(2, appended.size(), "the next entry, appended once the first was applied");

        appended.get(1).complete(null);
        assertTrue(second.isDone());
        CompletableFuture<Void> later = sync.await();
        assertEquals(3, appended.size(), "nothing in flight: a new entry at once");
        appended.get(2).complete(null);
        assertTrue(later.isDone());
    }

    @Test
    void aFailedAppendFailsItsBarriersAndTheNextOnesGetAnEntryOfTheirOwn() {
        CompletableFuture<Void> first = sync.await();
        CompletableFuture<Void> second = sync.await();
        appended.get(0).completeExceptionally(new IllegalStateException("no leader"));
        ExecutionException failed = assertThrows(ExecutionException.class, first::get);
        assertEquals("no leader", failed.getCause().getMessage());
        appended.get(1).complete(null);
        assertTrue(second.isDone() && !second.isCompletedExceptionally());
    }
}
