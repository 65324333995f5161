package org.phalanx.requestmanager.read;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.List;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.cache.CacheStage;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.write.TransactionControl;

/**
 * The read path: a read-only REPEATABLE READ or SERIALIZABLE transaction's reads in its snapshot
 * ({@link SnapshotRead}); otherwise the cache stage first; then, inside a transaction that has joined a backend able
 * to serve the read, on that branch ({@link TransactionRead}); otherwise committed data on a
 * pooled connection of a fresh backend, retried elsewhere on failure ({@link AutoCommitRead}).
 */
public final class ReadStage {
    private final Pipeline p;
    private final TransactionControl transactions;
    private final AutoCommitRead autoCommit;
    private final TransactionRead inTransaction;
    private final SnapshotRead inSnapshot;

    public ReadStage(Pipeline p, TransactionControl transactions) {
        this.p = p;
        this.transactions = transactions;
        this.autoCommit = new AutoCommitRead(p);
        this.inTransaction = new TransactionRead(p, transactions);
        this.inSnapshot = new SnapshotRead(p, transactions);
    }

    public CacheStage.Answer read(Request r, SqlAnalysis a, SessionState s) throws SQLException {
        if (s.readsSnapshot()) {
            return new CacheStage.Answer(inSnapshot.read(r, a, s), false); // the cache holds the latest state, not the snapshot's
        }
        if (s.locksReads()) {
            lockReads(r, a, s);
        }
        // a session's own settings (search_path) or temporary tables may change what a text reads
        if (s.settings().isEmpty() && s.home() == null) {
            Transaction begun = s.begunTransaction();
            CacheStage.Answer cached = p.cache().read(r, a, s.tails(), s.user(),
                    begun == null ? null : begun.writtenTables());
            if (cached != null) {
                return cached;
            }
        }
        return new CacheStage.Answer(readUncached(r, a, s), false);
    }

    /**
     * REPEATABLE READ and SERIALIZABLE: a transaction's reads lock their tables, shared, until it
     * ends (strict two-phase locking with its writes' locks), so no other transaction writes them
     * meanwhile, and the read is served where every write queued before is done. Conflicting
     * transactions are thus serialised in lock order, the same on every replica; a lock cycle
     * is refused with 40001 and the transaction rolled back.
     */
    private void lockReads(Request r, SqlAnalysis a, SessionState s) throws SQLException {
        Transaction t = s.currentTransaction(p.scheduler());
        transactions.throwIfDoomed(s, t);
        Access locks = p.scheduler().readLocks(a);
        if (locks.isEmpty()) {
            return;
        }
        try {
            p.scheduler().acquire(t.id(), locks, r.queryTimeoutSeconds());
        } catch (SQLTransactionRollbackException e) {
            transactions.rollbackQuietly(s);
            throw e;
        }
        // its commit is queued on these tables too: a later writer of them runs after it on every
        // backend, so no backend shows that writer's commit without this one's (a snapshot would)
        t.lock(locks);
    }

    private Result readUncached(Request r, SqlAnalysis a, SessionState s)
            throws SQLException {
        Transaction open = s.transaction(); // doomed before its first write too (a failed read on PostgreSQL)
        if (open != null) {
            transactions.throwIfDoomed(s, open);
        }
        Transaction t = s.begunTransaction();
        if (t != null) {
            for (Backend b : p.routing().read(a, p.backends().enabled()).candidates()) {
                if (t.branches().containsKey(b)) {
                    return inTransaction.read(r, a, s, t, null);
                }
            }
            // the transaction has not touched the backends this read needs: read committed data there
        }
        return autoCommit.read(r, a, s, null);
    }

    /**
     * A statement on the session's temporary tables, read or write: on its home backend only (where
     * they live, {@link org.phalanx.requestmanager.backend.SessionHome}), inside the session's
     * transaction if one is open (joined there first, so its rollback undoes the statement), never
     * from or into the cache (another session's table of that name is another table). It changes
     * nothing the other backends hold, so it is neither replicated nor logged.
     */
    public Result atHome(Request r, SqlAnalysis a, SessionState s, Backend home) throws SQLException {
        List<Backend> only = List.of(home);
        if (s.autoCommit()) {
            return autoCommit.read(r, a, s, only);
        }
        if (s.locksReads()) {
            lockReads(r, a, s);
        }
        Transaction t = s.currentTransaction(p.scheduler());
        transactions.throwIfDoomed(s, t);
        s.join(t, only);
        return inTransaction.read(r, a, s, t, only);
    }
}
