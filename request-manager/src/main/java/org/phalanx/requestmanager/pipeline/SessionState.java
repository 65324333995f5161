package org.phalanx.requestmanager.pipeline;

import java.util.List;
import org.phalanx.engine.Isolation;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionTails;
import org.phalanx.requestmanager.scheduler.Scheduler;

/** What the stages know of the session they serve: who, its transaction settings and its open transaction. */
public final class SessionState {
    private final String user;
    private final SessionTails tails = new SessionTails();
    private boolean autoCommit = true;
    private int isolation;
    private Transaction tx;

    /** @param isolation the virtual database's default level */
    public SessionState(String user, int isolation) {
        this.user = user;
        this.isolation = isolation;
    }

    public String user() {
        return user;
    }

    public SessionTails tails() {
        return tails;
    }

    public boolean autoCommit() {
        return autoCommit;
    }

    public void autoCommit(boolean on) {
        autoCommit = on;
    }

    public int isolation() {
        return isolation;
    }

    public void isolation(int level) {
        isolation = level;
    }

    /** Whether this session's transactions lock what they read until they end (REPEATABLE READ and SERIALIZABLE). */
    public boolean locksReads() {
        return !autoCommit && Isolation.locksReads(isolation);
    }

    /** Joins a transaction to backends with this session's login and isolation. */
    public void join(Transaction t, List<Backend> backends) {
        t.join(backends, user, isolation);
    }

    /** The open transaction, or null. */
    public Transaction transaction() {
        return tx;
    }

    /** The open transaction, opened now if there is none. */
    public Transaction currentTransaction(Scheduler scheduler) {
        if (tx == null) {
            tx = new Transaction(scheduler.nextTransactionId());
        }
        return tx;
    }

    /** The open transaction if it has joined some backend, else null. */
    public Transaction begunTransaction() {
        Transaction t = tx;
        return t != null && t.begun() ? t : null;
    }

    /** The transaction ends (its commit or rollback is on its way). */
    public void endTransaction() {
        tx = null;
    }
}
