package org.phalanx.requestmanager.backend;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.phalanx.requestmanager.scheduler.Access;

/**
 * One session's last queued task per backend. Its work on a backend queues behind its earlier
 * work there, and a read waits until its backend has run the session's earlier writes
 * (read-your-writes under the 'first' wait policy). Used by one thread at a time.
 */
public final class SessionTails {
    private final Map<Backend, BackendTask<?>> tails = new HashMap<>();

    /** Queues work that sends little on a backend behind this session's earlier work there. */
    public <T> BackendTask<T> enqueue(Backend b, Access access, Callable<T> work) {
        return enqueue(b, access, 0, work);
    }

    /** Queues work sending about {@code bytes} on a backend behind this session's earlier work there (see {@link Backend#enqueue}). */
    public <T> BackendTask<T> enqueue(Backend b, Access access, long bytes, Callable<T> work) {
        return enqueue(b, access, bytes, false, work);
    }

    /** The same, leaving work that can start at once to the caller (see {@link Backend#enqueue}). */
    public <T> BackendTask<T> enqueue(Backend b, Access access, long bytes, boolean callerRuns, Callable<T> work) {
        BackendTask<T> f = b.enqueue(access, tails.get(b), bytes, callerRuns, work);
        tails.put(b, f);
        return f;
    }

    /**
     * Runs cleanup once this session's last task on the backend has finished, however it ended,
     * even if the backend is disabled meanwhile: a task already running there may still be using
     * what the cleanup closes.
     */
    public void afterLast(Backend b, Runnable cleanup) {
        BackendTask<?> tail = tails.get(b);
        if (tail == null) {
            cleanup.run();
        } else {
            tail.whenRan((v, e) -> cleanup.run());
        }
    }

    /** The candidates that have applied this session's earlier writes; waits if none has yet. */
    public List<Backend> caughtUp(List<Backend> candidates) {
        while (true) {
            List<Backend> ready = new ArrayList<>(candidates.size());
            List<CompletableFuture<?>> waiting = new ArrayList<>();
            for (Backend b : candidates) {
                CompletableFuture<?> tail = tails.get(b);
                if (tail == null || tail.isDone()) {
                    ready.add(b);
                } else {
                    waiting.add(tail);
                }
            }
            if (!ready.isEmpty()) {
                return ready;
            }
            CompletableFuture.anyOf(waiting.toArray(new CompletableFuture[0])).handle((v, e) -> null).join();
        }
    }
}
