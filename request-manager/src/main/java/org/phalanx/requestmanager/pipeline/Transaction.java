package org.phalanx.requestmanager.pipeline;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.cache.Touch;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.scheduler.LockManager;

/**
 * An explicit transaction of one session. It joins the backends lazily, at its first write
 * (a branch = its own connection on each backend); reads before that run outside it.
 */
public final class Transaction {
    private final long id;
    /** Backend to this transaction's connection there, once begun. */
    private final Map<Backend, Connection> branches = new LinkedHashMap<>();
    /**
     * Everything its writes locked, read (shared) or written (exclusive); its commit/rollback
     * orders against these on each backend, so a later write of a table it read waits for it too.
     * Grown in place; {@link #access} makes them one {@link Access} when asked (at the end), null
     * until then: made at each write, it copied everything so far.
     */
    private final Set<String> reads = new HashSet<>();
    private final Set<String> writes = new HashSet<>();
    private Access access = Access.NOTHING;
    /** Tables it has written (its reads of them must not use the result cache); {@link LockManager#ALL} for any. */
    private final Set<String> writtenTables = new HashSet<>();
    /** What its writes may change, for the result cache when it commits; null once unknown. */
    private List<Touch> cacheWrites = new ArrayList<>();
    /** Set when the transaction can no longer commit everywhere; it must roll back. */
    private volatile SQLException doomed;
    private volatile boolean doomTold;
    private final Set<Backend> lostBranches = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Its commit or rollback has begun (guarded by this). */
    private boolean ending;
    /**
     * Per backend, what undoes this transaction's DDL in the schema view; run by that backend's
     * rollback task, after the DDL itself has run there. Filled from backend threads.
     */
    private final Map<Backend, List<Runnable>> schemaUndo = new ConcurrentHashMap<>();

    /** Completes once its commit or rollback has finished on every branch (or it ended without any). */
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    public Transaction(long id) {
        this.id = id;
    }

    public long id() {
        return id;
    }

    /** Whether it has joined some backend. */
    public boolean begun() {
        return !branches.isEmpty();
    }

    /** Backend to this transaction's connection there. */
    public Map<Backend, Connection> branches() {
        return branches;
    }

    /**
     * Lazy begin: the transaction joins a backend the first time it writes there; the branch
     * takes its connection when the backend's queue reaches it (see {@link LazyBranch}). A backend
     * that cannot be reached then fails that statement and is disabled.
     */
    public void join(List<Backend> backends, String user, SessionSettings settings, int isolation) {
        for (Backend b : backends) {
            if (!branches.containsKey(b)) {
                branches.put(b, LazyBranch.of(b, user, settings, isolation));
            }
        }
    }

    public Access access() {
        if (access == null) {
            access = new Access(reads, writes);
        }
        return access;
    }

    public void lock(Access more) {
        if (reads.addAll(more.reads()) | writes.addAll(more.writes())) {
            access = null;
        }
    }

    public Set<String> writtenTables() {
        return writtenTables;
    }

    /** What its writes may change, for the result cache at commit; null when unknown (anything). */
    public List<Touch> cacheWrites() {
        return cacheWrites;
    }

    /** Adds what a write may change; null: it may change anything. */
    public void mayChange(List<Touch> touches) {
        if (touches == null) {
            cacheWrites = null;
        } else if (cacheWrites != null) {
            cacheWrites.addAll(touches);
        }
    }

    public CompletableFuture<Void> ended() {
        return ended;
    }

    public SQLException doomed() {
        return doomed;
    }

    /**
     * It can no longer commit everywhere: its next statement or commit rolls it back with this error
     * (null: it can again, after a rollback to a savepoint).
     */
    public void doom(SQLException reason) {
        doomed = reason;
        if (reason == null) {
            doomTold = false;
        }
    }

    /**
     * A statement of it lost its connection on {@code b}: the branch there is gone (its server rolled
     * it back), so its commit must not run there. Run anyway on a branch opened again (a lazy one
     * opens at its first use, the commit's record included), it committed an empty transaction with
     * the record of the commit's position, and replay then skipped what the backend lacked (seen
     * when that backend's connection came back while the commit waited for it).
     */
    public void branchLost(Backend b) {
        lostBranches.add(b);
    }

    public boolean lostBranchOn(Backend b) {
        return lostBranches.contains(b);
    }

    /**
     * Dooms it unless its end (commit or rollback) has begun, atomically with {@link #beginEnding}:
     * whether it did. A branch lost on a backend that stays in service is safe only so: a doom that
     * came after the commit's check let the commit go on elsewhere, and the backend kept in service
     * lacked the transaction's write.
     */
    public synchronized boolean doomUnlessEnding(SQLException reason) {
        if (ending) {
            return false;
        }
        if (doomed == null) {
            doom(reason);
        }
        return true;
    }

    /** Its end begins: what doomed it so far (null: nothing), and no {@link #doomUnlessEnding} counts after this. */
    public synchronized SQLException beginEnding() {
        ending = true;
        return doomed;
    }

    /** Whether the client has had the reason it is doomed (what it runs next is then told it is aborted). */
    public boolean doomTold() {
        return doomTold;
    }

    public void doomTold(boolean told) {
        doomTold = told;
    }

    /**
     * Every backend it ran on lost its connection during one of its statements: each rolled its
     * branch back, so it can only end rolled back; its next statement or commit says so.
     */
    public void lostEverywhere(SQLException cause) {
        if (doomed != null) {
            return; // already doomed, by a more precise reason (its sessions ended on backends still in service)
        }
        doom(new SQLException("the transaction was rolled back: every backend it ran on lost its connection or left"
                + " service (" + cause.getMessage() + ")", SqlState.CONNECTION_FAILURE.code(), cause));
    }

    /**
     * Its session on a backend still in service ended (killed, an idle-in-transaction timeout): that
     * server rolled its branch back, so the transaction can only end rolled back, as on one database.
     */
    public static SQLException sessionEnded(String backend, SQLException cause) {
        return new SQLException("the transaction was rolled back: its session on backend " + backend + " ended ("
                + cause.getMessage() + ")", cause.getSQLState(), cause);
    }

    /** Dooms it as PostgreSQL aborts a transaction after a failed statement: what follows gets {@code 25P02}. */
    public void abortAfter(SQLException failure) {
        doom(new SQLException("current transaction is aborted after an error (" + failure.getMessage()
                + "), commands ignored until end of transaction block", SqlState.IN_FAILED_SQL_TRANSACTION.code()));
    }

    public void undoLater(Backend b, Runnable undo) {
        schemaUndo.computeIfAbsent(b, k -> new CopyOnWriteArrayList<>()).add(undo);
    }

    public void undoSchema(Backend b) {
        List<Runnable> undo = schemaUndo.remove(b);
        if (undo != null) {
            for (int i = undo.size() - 1; i >= 0; i--) {
                undo.get(i).run();
            }
        }
    }
}
