package org.phalanx.requestmanager.backend;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * A task queued on a backend. It completes with the work's result, or early, with a
 * {@link BackendDisabledException}, when the backend leaves service while the work waits or hangs:
 * whoever waits for it (a client, the tasks queued behind it) must not wait for a server that does
 * not answer. {@link #whenRan} is for what must not overlap the work itself (closing the
 * connection it uses): it runs once the work has really ended, or was skipped.
 */
public final class BackendTask<T> extends CompletableFuture<T> {
    private final CompletableFuture<Void> ran = new CompletableFuture<>();
    /** The work, when its caller runs it itself (see {@link Backend#enqueue}); null once taken. */
    private volatile Runnable callerRuns;

    /** Runs the action, with this task's outcome, once the work has really ended or was skipped. */
    public void whenRan(BiConsumer<? super T, ? super Throwable> action) {
        ran.whenComplete((v, e) -> whenComplete(action));
    }

    void runByCaller(Runnable work) {
        callerRuns = work;
    }

    /**
     * Runs the work on this thread if it was left to the caller ({@code callerRuns} in
     * {@link Backend#enqueue}); the caller must call this right after the write ordering's
     * delivery, whatever happens, since later conflicting tasks wait for this one.
     */
    public void runIfLeftToCaller() {
        Runnable work = callerRuns;
        if (work != null) {
            callerRuns = null;
            work.run();
        }
    }

    /** The work has ended (or will never run). */
    void ran() {
        ran.complete(null);
    }

    /** Futures derived from this one are plain futures. */
    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
