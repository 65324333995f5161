package org.phalanx.testkit.jdbc;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fault knobs and counters of one named backend of {@link FaultyDriver}, shared by all its
 * connections. A test sets the knobs while the backend is in use.
 */
public final class Fault {
    /** Sleep before each statement execution reaches the real driver. */
    public volatile long delayMillis;
    /** Every call on the backend's connections and statements fails like a dead connection (08006). */
    public volatile boolean broken;
    /** Every new connection and statement execution waits while set, as on a stopped server (SIGSTOP). */
    private volatile boolean hung;
    private final Object resumed = new Object();
    /** Statement executions that reached the real driver. */
    public final AtomicLong executions = new AtomicLong();
    /** {@code ResultSet.next()} calls on this backend's results: shows how far a result was read. */
    public final AtomicLong rowsRead = new AtomicLong();

    final String name;

    Fault(String name) {
        this.name = name;
    }

    /** From now on, new connections and statement executions wait, as on a stopped server, until {@link #resume}. */
    public void hang() {
        hung = true;
    }

    /** Lets whatever waits on a hung backend go on. */
    public void resume() {
        synchronized (resumed) {
            hung = false;
            resumed.notifyAll();
        }
    }

    /** No delay, not broken, not hung, counters at zero: a backend as a fresh test wants it. */
    public void reset() {
        delayMillis = 0;
        broken = false;
        resume();
        executions.set(0);
        rowsRead.set(0);
    }

    void check() throws SQLException {
        if (broken) {
            throw new SQLNonTransientConnectionException("injected fault: connection broken", "08006");
        }
    }

    /** Waits while the backend is hung. */
    void awaitResumed() throws InterruptedException {
        synchronized (resumed) {
            while (hung) {
                resumed.wait();
            }
        }
    }

    /** Counts an execution and waits while hung and the injected delay, before the statement reaches its backend. */
    void beforeExecution() throws InterruptedException {
        awaitResumed();
        executions.incrementAndGet();
        long delay = delayMillis;
        if (delay > 0) {
            Thread.sleep(delay);
        }
    }
}
