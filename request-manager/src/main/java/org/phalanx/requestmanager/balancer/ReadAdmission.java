package org.phalanx.requestmanager.balancer;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.backend.Backend;

/**
 * Gives an auto-commit read to a backend with room: one with fewer requests in progress than
 * its {@code maxPending} (or any, without that limit), chosen by the balancer. When every
 * backend able to serve the read is full, the read waits here, in arrival order, and goes to
 * the first of them that finishes a request (late binding, as a proxy's per-server connection
 * limit with a queue in front): the backends' own queues stay short, so a statement that is never
 * held back here (a write, a read inside a transaction) finds a short queue, and a transaction
 * holds its scheduler locks for less time.
 */
public final class ReadAdmission {
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** A read waiting for room; {@code granted} is set, with the backend's count taken, by whoever admits it. */
    private static final class Waiter {
        final List<Backend> candidates;
        final Thread thread = Thread.currentThread();
        volatile Backend granted;

        Waiter(List<Backend> candidates) {
            this.candidates = candidates;
        }
    }

    private final ReadBalancer balancer;
    private final Deque<Waiter> queue = new ArrayDeque<>(); // guarded by this
    private volatile int waiting;

    public ReadAdmission(ReadBalancer balancer) {
        this.balancer = balancer;
    }

    /** Reads waiting for a backend with room now. */
    public int waiting() {
        return waiting;
    }

    /**
     * A backend among the candidates (non-empty), with the read already counted in its pending
     * requests (the caller ends it with {@link Backend#readFinished}); waits for room if need be.
     * Returns null when every candidate has been taken out of service meanwhile.
     *
     * @param timeoutSeconds the read's query timeout, 0 for none: waiting longer fails with HYT00
     */
    public Backend admit(List<Backend> candidates, int timeoutSeconds) throws SQLException {
        if (waiting == 0) {
            Backend b = tryStart(candidates);
            if (b != null) {
                return b;
            }
        }
        Waiter w = new Waiter(candidates);
        synchronized (this) {
            queue.addLast(w);
            waiting = queue.size(); // before looking again: a request ending now then sees a waiter
            Backend b = tryStart(candidates);
            if (b != null) {
                leave(w);
                return b;
            }
        }
        long deadline = timeoutSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds) : 0;
        while (true) {
            long left = deadline == 0 ? RECHECK_NANOS : Math.min(RECHECK_NANOS, deadline - System.nanoTime());
            if (left > 0) {
                LockSupport.parkNanos(this, left);
            }
            if (w.granted != null) {
                return w.granted;
            }
            synchronized (this) {
                if (w.granted != null) {
                    return w.granted;
                }
                if (Thread.interrupted()) {
                    leave(w);
                    throw new SQLException("interrupted while waiting for a backend with room",
                            SqlState.OPERATION_CANCELED.code());
                }
                if (deadline != 0 && deadline - System.nanoTime() <= 0) {
                    leave(w);
                    throw new SQLTimeoutException("query timeout: every backend able to serve the read stayed at its"
                            + " maxPending for " + timeoutSeconds + " s", SqlState.TIMEOUT_EXPIRED.code());
                }
                if (candidates.stream().noneMatch(Backend::isEnabled)) {
                    leave(w);
                    return null;
                }
            }
        }
    }

    /** Told by a backend each time one of its requests ends: the first waiter it can serve gets it. */
    public void ended(Backend b) {
        if (waiting == 0) {
            return;
        }
        synchronized (this) {
            for (Iterator<Waiter> it = queue.iterator(); it.hasNext() && b.hasRoom(); ) {
                Waiter w = it.next();
                if (w.candidates.contains(b) && b.tryReadStarted()) {
                    it.remove();
                    waiting = queue.size();
                    w.granted = b;
                    LockSupport.unpark(w.thread);
                }
            }
        }
    }

    private void leave(Waiter w) {
        queue.remove(w);
        waiting = queue.size();
    }

    private Backend tryStart(List<Backend> candidates) {
        // the candidates themselves when all have room (always, without limits): no copy per read
        List<Backend> room = allHaveRoom(candidates) ? candidates : withRoom(candidates);
        while (!room.isEmpty()) {
            Backend b = balancer.choose(room);
            if (b.tryReadStarted()) {
                return b;
            }
            room = withRoom(room); // b filled meanwhile
        }
        return null;
    }

    private static boolean allHaveRoom(List<Backend> backends) {
        for (Backend b : backends) {
            if (!b.hasRoom()) {
                return false;
            }
        }
        return true;
    }

    private static List<Backend> withRoom(List<Backend> backends) {
        List<Backend> room = new ArrayList<>(backends.size());
        for (Backend b : backends) {
            if (b.hasRoom()) {
                room.add(b);
            }
        }
        return room;
    }
}
