package org.phalanx.requestmanager.write;

import java.util.Collection;
import java.util.concurrent.Callable;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendTask;
import org.phalanx.requestmanager.backend.SessionTails;
import org.phalanx.requestmanager.scheduler.Access;

/**
 * One backend's copy of work the client waits for anyway (a write, a batch, a commit), run on
 * the client's own thread instead of a backend thread when nothing queued before it conflicts:
 * that spares two thread hand-offs (see {@link Backend#enqueue}), about 50 µs each on these
 * machines, for every statement of a transaction. The copy chosen is the one of the backend with
 * the fewest writes queued, the likeliest to answer first; under {@code waitPolicy="first"} the
 * client is then answered once that one has run, though another may have been quicker (on a
 * healthy cluster the hand-offs cost more). Work run this way must register its connection with
 * {@code b.running().startOn(...)}: a backend found hung has it aborted, so the client is never held
 * longer than the hang limit.
 *
 * <p>Use: create it before the write ordering's delivery, {@link #enqueue} every backend's copy
 * inside it, and call {@link #run} once out of it, whatever happened (later conflicting work waits
 * for the copy left here).
 */
final class ClientThreadCopy {
    private final Backend chosen;
    /** A write ordering delivering on another thread (later) leaves nothing here. */
    private final Thread client = Thread.currentThread();
    private BackendTask<?> left;

    ClientThreadCopy(Collection<Backend> targets) {
        Backend best = null;
        for (Backend b : targets) {
            if (best == null || b.queuedWrites() < best.queuedWrites()) {
                best = b;
            }
        }
        this.chosen = best;
    }

    /** Queues {@code b}'s copy in the session's order there; the chosen one may be left to this thread. */
    <T> BackendTask<T> enqueue(SessionTails tails, Backend b, Access access, long bytes, Callable<T> work) {
        boolean mine = b == chosen && Thread.currentThread() == client;
        BackendTask<T> f = tails.enqueue(b, access, bytes, mine, work);
        if (mine) {
            left = f;
        }
        return f;
    }

    /** Runs the copy left to this thread, if any. */
    void run() {
        if (left != null) {
            left.runIfLeftToCaller();
        }
    }
}
