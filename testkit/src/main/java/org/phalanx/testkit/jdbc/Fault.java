package org.phalanx.testkit.jdbc;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

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
    /**
     * When a statement's SQL matches, the backend breaks just before it would run (it fails, and so
     * does every later call, as {@link #broken}): where a crash of the controller would cut the work
     * off. Null: never.
     */
    public volatile Predicate<String> breakBefore;
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
        breakBefore = null;
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
    void awaitResumed() throws InterruptedException, SQLException {
        awaitResumed(() -> false);
    }

    /**
     * Waits while the backend is hung, unless the connection waiting is aborted meanwhile: then it
     * fails, as a real driver's call does once {@code Connection.abort} closed its socket.
     */
    void awaitResumed(BooleanSupplier aborted) throws InterruptedException, SQLException {
        synchronized (resumed) {
            while (hung) {
                if (aborted.getAsBoolean()) {
                    throw new SQLNonTransientConnectionException("injected fault: connection aborted while hung", "08006");
                }
                resumed.wait();
            }
        }
    }

    /** Wakes whatever waits on the hung backend, to look whether its connection was aborted. */
    void wakeWaiters() {
        synchronized (resumed) {
            resumed.notifyAll();
        }
    }

    /**
     * Breaks the backend if {@link #breakBefore} matches the statement; else waits while hung,
     * counts an execution and waits the injected delay, before the statement reaches its backend.
     */
    void beforeExecution(String sql, BooleanSupplier aborted) throws InterruptedException, SQLException {
        Predicate<String> breaking = breakBefore;
        if (breaking != null && sql != null && breaking.test(sql)) {
            broken = true;
            check();
        }
        awaitResumed(aborted);
        executions.incrementAndGet();
        long delay = delayMillis;
        if (delay > 0) {
            Thread.sleep(delay);
        }
    }
}
