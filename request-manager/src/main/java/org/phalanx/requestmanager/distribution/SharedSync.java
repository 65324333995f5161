package org.phalanx.requestmanager.distribution;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The sync entries that read barriers ({@code followerReads=current}) append to the group's log,
 * shared by the barriers under way at once. A sync entry appended after a barrier began serves it:
 * every write committed before the barrier began precedes that entry in the log. So barriers that
 * arrive while one entry is on its way wait together for the next, appended once that one is
 * applied here: one sync entry in flight at a time however many readers wait, instead of one each
 * (every entry is a round of the log and an fsync on a majority).
 */
final class SharedSync {
    private final Supplier<CompletableFuture<?>> append;
    private boolean inFlight;
    /** The barriers that arrived while an entry was in flight: served by the next one. */
    private CompletableFuture<Void> next;

    SharedSync(Supplier<CompletableFuture<?>> append) {
        this.append = append;
    }

    /** Completes once a sync entry appended after this call is applied on this member (or fails as the append did). */
    CompletableFuture<Void> await() {
        CompletableFuture<Void> waiters;
        synchronized (this) {
            if (inFlight) {
                if (next == null) {
                    next = new CompletableFuture<>();
                }
                return next;
            }
            inFlight = true;
            waiters = new CompletableFuture<>();
        }
        send(waiters);
        return waiters;
    }

    private void send(CompletableFuture<Void> waiters) {
        CompletableFuture<?> appended;
        try {
            appended = append.get();
        } catch (RuntimeException e) {
            appended = CompletableFuture.failedFuture(e);
        }
        appended.whenComplete((v, e) -> {
            if (e != null) {
                waiters.completeExceptionally(e);
            } else {
                waiters.complete(null);
            }
            CompletableFuture<Void> following;
            synchronized (this) {
                following = next;
                next = null;
                inFlight = following != null;
            }
            if (following != null) {
                send(following);
            }
        });
    }
}
