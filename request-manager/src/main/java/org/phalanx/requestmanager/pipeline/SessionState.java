package org.phalanx.requestmanager.pipeline;

import org.phalanx.requestmanager.analysis.SequenceValues;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.phalanx.engine.Isolation;
import org.phalanx.requestmanager.analysis.SequenceValues;
import org.phalanx.requestmanager.api.RequestId;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionHome;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.backend.SessionTails;
import org.phalanx.requestmanager.scheduler.Scheduler;

/** What the stages know of the session they serve: who, its transaction settings and its open transaction. */
public final class SessionState {
    private final String user;
    private final SessionTails tails = new SessionTails();
    private boolean autoCommit = true;
    private int isolation;
    private boolean readOnly;
    /** Its own parameters (SET search_path...), applied to every backend connection that serves it. */
    private SessionSettings settings = SessionSettings.NONE;
    /** Its own connection where its temporary tables live, or null. */
    private SessionHome home;
    /** The settings before the open transaction changed them, where its rollback undoes that (PostgreSQL); else null. */
    private SessionSettings settingsBeforeTransaction;
    /** Parameters PostgreSQL's SET LOCAL set in the open transaction, to the statements that set them before (null: unset). */
    private final Map<String, String> localBefore = new HashMap<>();
    private Transaction tx;
    /** A read-only REPEATABLE READ or SERIALIZABLE transaction's snapshot, once it has read. */
    private ReadOnlySnapshot snapshot;

    /** The client's id of the request being served, for the log entries it makes (exactly-once retries); or null. */
    private RequestId requestId;
    /** This session's last inserted id (SQLite's {@code last_insert_rowid()}, MariaDB's {@code LAST_INSERT_ID()}; 0 before any, as they say). */
    private long lastInsertId;
    private final SequenceValues sequenceValues = new SequenceValues();

    /** @param isolation the virtual database's default level */
    public SessionState(String user, int isolation) {
        this.user = user;
        this.isolation = isolation;
    }

    public String user() {
        return user;
    }

    /** The client's id of the request being served; or null. */
    public RequestId requestId() {
        return requestId;
    }

    public void requestId(RequestId id) {
        requestId = id;
    }

    /** The id as the auto-commit statement or commit the request logs carries it; or null. */
    public String requestIdForLog() {
        return requestId == null ? null : requestId.toString();
    }

    /** PostgreSQL's currval() and lastval() for the keys the controller chose for this session's INSERTs. */
    public SequenceValues sequenceValues() {
        return sequenceValues;
    }

    public long lastInsertId() {
        return lastInsertId;
    }

    public void lastInsertId(long id) {
        lastInsertId = id;
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

    /** Its parameters, and its home: work on the home's backend runs there. */
    public SessionSettings settings() {
        return settings.at(home);
    }

    public SessionHome home() {
        return home;
    }

    public void home(SessionHome h) {
        home = h;
    }

    public void settings(SessionSettings now) {
        settings = now;
    }

    /** The open transaction changes the settings, and its rollback must put them back (PostgreSQL's SET). */
    public void settingsUndoneByRollback() {
        if (settingsBeforeTransaction == null) {
            settingsBeforeTransaction = settings;
        }
    }

    /**
     * Parameters {@code SET LOCAL} changed from {@code before} in the open transaction: their values
     * before come back when it ends, committed or not. {@code local} false: set for the session
     * (plain SET), they stay.
     */
    public void setInTransaction(Collection<String> names, SessionSettings before, boolean local) {
        for (String name : names) {
            if (!local) {
                localBefore.remove(name);
            } else if (!localBefore.containsKey(name)) {
                localBefore.put(name, before.statement(name));
            }
        }
    }

    /** The transaction ended: its rollback puts back the settings it changed, where the engines do; SET LOCAL ends. */
    public void transactionEnded(boolean committed) {
        if (settingsBeforeTransaction != null && !committed) {
            settings = settingsBeforeTransaction;
        } else {
            localBefore.forEach((name, statement) -> settings = statement == null
                    ? settings.without(List.of(name)) : settings.with(name, statement));
        }
        settingsBeforeTransaction = null;
        localBefore.clear();
    }

    public boolean readOnly() {
        return readOnly;
    }

    public void readOnly(boolean on) {
        readOnly = on;
    }

    /**
     * Whether this session's transactions must read one state of the database until they end
     * (REPEATABLE READ and SERIALIZABLE): by locking what they read, or, read-only, in a snapshot.
     */
    private boolean stableReads() {
        return !autoCommit && Isolation.locksReads(isolation);
    }

    /** Whether this session's transactions lock what they read until they end (REPEATABLE READ and SERIALIZABLE, read-write). */
    public boolean locksReads() {
        return stableReads() && !readOnly;
    }

    /** Whether this session's transactions read in a snapshot of one backend (REPEATABLE READ and SERIALIZABLE, read-only). */
    public boolean readsSnapshot() {
        return stableReads() && readOnly;
    }

    public ReadOnlySnapshot snapshot() {
        return snapshot;
    }

    public void snapshot(ReadOnlySnapshot opened) {
        snapshot = opened;
    }

    /** Whether a transaction is open: one that has read or written, or a read-only one's snapshot. */
    public boolean inTransaction() {
        return tx != null || snapshot != null;
    }

    /** Joins a transaction to backends with this session's login and isolation. */
    public void join(Transaction t, List<Backend> backends) {
        t.join(backends, user, settings(), isolation);
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

    /** The transaction ends (its commit or rollback is on its way); a read-only one's snapshot ends now. */
    public void endTransaction() {
        tx = null;
        if (snapshot != null) {
            snapshot.end();
            snapshot = null;
        }
    }
}
