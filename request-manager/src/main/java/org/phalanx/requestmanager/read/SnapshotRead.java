package org.phalanx.requestmanager.read;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.List;
import java.util.Set;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.SqlStates;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.ReadOnlySnapshot;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.scheduler.LockManager;
import org.phalanx.requestmanager.write.TransactionControl;

/**
 * The reads of a read-only REPEATABLE READ or SERIALIZABLE transaction ({@code setReadOnly(true)}):
 * all in one snapshot of one backend, taking no lock. The backend is chosen, at the first read,
 * among those that have run every write acknowledged to a client (so the transaction sees every
 * commit acknowledged before it began); the engine's snapshot then holds a set of committed
 * transactions closed under the scheduler's order (a transaction's writes run on a backend only
 * after the commits of the conflicting transactions before it, including those that read what it
 * writes), so what the transaction reads is the state after some prefix of one serial order of
 * the writers: it is serializable, and it holds back no writer (docs/architecture.md,
 * "Read-only transactions").
 */
final class SnapshotRead {
    private static final Set<String> EVERYTHING = Set.of(LockManager.ALL);

    private final Pipeline p;
    private final TransactionControl transactions;

    SnapshotRead(Pipeline p, TransactionControl transactions) {
        this.p = p;
        this.transactions = transactions;
    }

    Result read(Request r, SqlAnalysis a, SessionState s) throws SQLException {
        List<Backend> candidates = p.routing().read(a, p.backends().enabled()).candidates();
        ReadOnlySnapshot snapshot = s.snapshot();
        if (snapshot == null) {
            snapshot = open(candidates, s);
        } else if (!candidates.contains(snapshot.backend())) {
            transactions.rollbackQuietly(s);
            throw new SQLException("a read-only transaction reads one backend's snapshot, and "
                    + snapshot.backend().name() + " cannot serve this read (its tables are elsewhere, or it left"
                    + " service); run it in a read-write transaction or at READ COMMITTED",
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        Backend b = snapshot.backend();
        b.readStarted();
        try {
            return p.reads().run(b, snapshot.connection(), r, s.user(), s.settings());
        } catch (SQLException failure) {
            SQLException e = SqlStates.normalize(failure, b.dialect());
            if (BackendErrors.isConnectionFailure(e)) {
                p.statistics().readRetry();
                boolean left = b.leaveUnlessItConnects("connection failed during a read: " + e.getMessage());
                transactions.rollbackQuietly(s);
                if (!left) {
                    throw Transaction.sessionEnded(b.name(), e);
                }
                throw new SQLTransactionRollbackException("the backend holding this read-only transaction's snapshot"
                        + " failed (" + e.getMessage() + "); run the transaction again",
                        SqlState.SERIALIZATION_FAILURE.code(), e);
            }
            throw e; // as the engine itself answers (PostgreSQL: the transaction is aborted)
        }
    }

    /** The snapshot on a backend that has run every acknowledged write (conflict-aware), or the balancer's choice once it has. */
    private ReadOnlySnapshot open(List<Backend> candidates, SessionState s) throws SQLException {
        if (candidates.isEmpty()) {
            throw p.backends().noBackend();
        }
        Backend b = p.balancer().choose(Freshness.choosable(p, s.tails().caughtUp(candidates), EVERYTHING, false));
        Freshness.awaitChosen(p, b, EVERYTHING, false);
        ReadOnlySnapshot snapshot = ReadOnlySnapshot.open(b, s.user(), s.settings(), s.isolation());
        s.snapshot(snapshot);
        return snapshot;
    }
}
