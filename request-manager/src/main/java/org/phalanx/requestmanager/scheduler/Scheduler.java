package org.phalanx.requestmanager.scheduler;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.analysis.StatementKind;

/**
 * The schedule stage: what a statement locks, the locks themselves, and the one total order of
 * writes, commits and rollbacks (the {@link WriteOrdering} seam).
 */
public final class Scheduler {
    private final LockManager locks = new LockManager();
    private final WriteOrdering ordering;
    /** The engine (SQLite) or our ignorance of it allows one writing transaction at a time. */
    private final boolean lockWholeDatabase;
    /** Writes of one row by its key may lock that row only ({@code lockGranularity="key"}). */
    private final boolean locksRows;
    private final long lockTimeoutMillis;
    /**
     * Transaction ids never repeat across restarts (they start from the clock, in thousandths of a
     * millisecond): the log entries of a transaction a crash left open must never be taken for
     * those of a later one.
     */
    private final AtomicLong transactionIds = new AtomicLong(System.currentTimeMillis() * 1000);

    public Scheduler(WriteOrdering ordering, boolean lockWholeDatabase, Duration lockTimeout) {
        this(ordering, lockWholeDatabase, false, lockTimeout);
    }

    public Scheduler(WriteOrdering ordering, boolean lockWholeDatabase, boolean locksRows, Duration lockTimeout) {
        this.ordering = ordering;
        this.lockWholeDatabase = lockWholeDatabase;
        this.locksRows = locksRows && !lockWholeDatabase;
        this.lockTimeoutMillis = lockTimeout.toMillis();
    }

    public long nextTransactionId() {
        return transactionIds.incrementAndGet();
    }

    public boolean locksRows() {
        return locksRows;
    }

    public long lockTimeoutMillis() {
        return lockTimeoutMillis;
    }

    /**
     * What a write locks and orders against: the tables it writes, exclusively, and the tables it
     * only reads, shared. The tables it reads count: INSERT ... SELECT must see the same rows on
     * every backend, so no write of its source may come between on one backend only; but two
     * statements that only read the same table do not conflict. A write that names no table it
     * writes (a function call, say) may change what it reads: those are written then.
     */
    public Access lockResources(SqlAnalysis a) {
        // DDL locks only the tables it names where the engines lock per table and key-level
        // conflicts follow foreign keys (PostgreSQL, MariaDB); SQLite changes a whole file's schema
        if (lockWholeDatabase || a.allTables() || a.kind() == StatementKind.DDL && !locksRows) {
            return Access.EVERYTHING;
        }
        if (a.writtenTables().isEmpty()) {
            return a.readTables().isEmpty() ? Access.EVERYTHING : Access.writing(keys(a.readTables()));
        }
        return Access.of(keys(a.readTables()), keys(a.writtenTables()));
    }

    /**
     * The tables as resources: without schema or database qualifier ({@link SqlAnalyzer#tableKey}), so
     * that {@code public.t}, {@code vdb.t} and {@code t} are one resource; else two writes of one
     * table, written with and without its qualifier, would not be ordered alike on every backend.
     * Tables of one name in two schemas then conflict: parallelism lost, never consistency.
     */
    private static Collection<String> keys(Collection<String> tables) {
        for (String t : tables) {
            if (t.indexOf('.') >= 0) {
                Set<String> keys = new HashSet<>();
                for (String each : tables) {
                    keys.add(SqlAnalyzer.tableKey(each));
                }
                return keys;
            }
        }
        return tables; // nearly always unqualified: nothing allocated on the way of a write
    }

    /** What a read must find applied on a backend before it may be served from there (or cached). */
    public Collection<String> readResources(SqlAnalysis a) {
        if (lockWholeDatabase) {
            return Set.of(LockManager.ALL);
        }
        return keys(a.readTables());
    }

    /**
     * What a read of a REPEATABLE READ or SERIALIZABLE transaction locks, shared, until the
     * transaction ends: its tables, or the whole database where writes lock it or the read is not
     * understood.
     */
    public Access readLocks(SqlAnalysis a) {
        if (lockWholeDatabase || a.allTables()) {
            return Access.reading(Set.of(LockManager.ALL));
        }
        return Access.reading(keys(a.readTables()));
    }

    /** Takes the locks only if no other transaction is in the way ({@code FOR UPDATE NOWAIT}). */
    public boolean tryAcquire(long txId, Access access) {
        return locks.tryAcquire(txId, access);
    }

    /** Waits up to the lock timeout for the locks (refused with 40001 past it). */
    public void acquire(long txId, Access access) throws SQLException {
        acquire(txId, access, 0);
    }

    /**
     * As {@link #acquire(long, Access)} for a statement with a query timeout ({@code setQueryTimeout};
     * 0: none): it waits no longer than that. Past it the statement fails ({@code 57014}, as on
     * PostgreSQL a statement cancelled while waiting for a row lock), not the transaction, which has
     * taken nothing more: the same as the lock timeout's 40001 only when the lock timeout is shorter.
     */
    public void acquire(long txId, Access access, int queryTimeoutSeconds) throws SQLException {
        acquire(txId, access, queryTimeoutSeconds, 0);
    }

    /**
     * The same with the session's own lock timeout ({@code sessionLockMillis}, 0: none): past it,
     * {@link SessionLockTimeoutExpired} (the statement fails as the engine's lock timeout fails it).
     */
    public void acquire(long txId, Access access, int queryTimeoutSeconds, long sessionLockMillis) throws SQLException {
        long statementMillis = queryTimeoutSeconds > 0 ? queryTimeoutSeconds * 1000L : Long.MAX_VALUE;
        long sessionMillis = sessionLockMillis > 0 ? sessionLockMillis : Long.MAX_VALUE;
        long wait = Math.min(lockTimeoutMillis, Math.min(statementMillis, sessionMillis));
        try {
            locks.acquire(txId, access, wait);
        } catch (LockConflict e) {
            if (e.kind() == LockConflict.Kind.TIMEOUT && wait < lockTimeoutMillis) {
                if (wait == sessionMillis) {
                    throw new SessionLockTimeoutExpired(sessionLockMillis);
                }
                throw new SQLException("canceling statement: it waited longer than its query timeout of "
                        + queryTimeoutSeconds + " s for a lock another transaction holds", SqlState.QUERY_CANCELED.code());
            }
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for a lock", SqlState.OPERATION_CANCELED.code(), e);
        }
    }

    /** The session's lock timeout passed while a statement waited for a lock. */
    public static final class SessionLockTimeoutExpired extends SQLException {
        SessionLockTimeoutExpired(long millis) {
            super("canceling statement due to lock timeout (" + millis + " ms, the session's)",
                    SqlState.LOCK_NOT_AVAILABLE.code());
        }
    }

    public void releaseAll(long txId) {
        locks.releaseAll(txId);
    }

    /** Runs {@code deliver} with the next position of the total order (see {@link WriteOrdering}). */
    public void order(WriteOrdering.Delivery deliver) {
        ordering.order(deliver);
    }

    /** The last position of the total order. */
    public long lastPosition() {
        return ordering.lastPosition();
    }

    /** Blocks new writes (the whole-database lock) until closed; writing transactions in progress finish first. */
    public Quiesce quiesce() throws SQLException {
        long id = nextTransactionId();
        try {
            locks.acquire(id, Access.EVERYTHING, Math.max(lockTimeoutMillis, 60_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for writes to pause",
                    SqlState.OPERATION_CANCELED.code(), e);
        }
        return () -> locks.releaseAll(id);
    }
}
