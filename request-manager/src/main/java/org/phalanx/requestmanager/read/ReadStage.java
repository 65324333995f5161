package org.phalanx.requestmanager.read;

import java.sql.SQLException;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.cache.CacheStage;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.write.TransactionControl;

/**
 * The read path: the cache stage first; then, inside a transaction that has joined a backend able
 * to serve the read, on that branch ({@link TransactionRead}); otherwise committed data on a
 * pooled connection of a fresh backend, retried elsewhere on failure ({@link AutoCommitRead}).
 */
public final class ReadStage {
    private final Pipeline p;
    private final TransactionControl transactions;
    private final AutoCommitRead autoCommit;
    private final TransactionRead inTransaction;

    public ReadStage(Pipeline p, TransactionControl transactions) {
        this.p = p;
        this.transactions = transactions;
        this.autoCommit = new AutoCommitRead(p);
        this.inTransaction = new TransactionRead(p, transactions);
    }

    public CacheStage.Answer read(Request r, SqlAnalysis a, SessionState s) throws SQLException {
        Transaction begun = s.begunTransaction();
        CacheStage.Answer cached = p.cache().read(r, a, s.tails(), s.user(),
                begun == null ? null : begun.writtenTables());
        if (cached != null) {
            return cached;
        }
        return new CacheStage.Answer(readUncached(r, a, s), false);
    }

    private Result readUncached(Request r, SqlAnalysis a, SessionState s)
            throws SQLException {
        Transaction t = s.begunTransaction();
        if (t != null) {
            transactions.throwIfDoomed(s, t);
            for (Backend b : p.routing().read(a, p.backends().enabled()).candidates()) {
                if (t.branches().containsKey(b)) {
                    return inTransaction.read(r, a, s, t);
                }
            }
            // the transaction has not touched the backends this read needs: read committed data there
        }
        return autoCommit.read(r, a, s);
    }
}
