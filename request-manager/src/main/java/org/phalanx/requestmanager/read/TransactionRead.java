package org.phalanx.requestmanager.read;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.SqlStates;
import org.phalanx.requestmanager.exec.Closeables;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.write.TransactionControl;

/** A read inside a begun transaction: on one of its branches able to serve it, after its earlier writes there. */
final class TransactionRead {
    private final Pipeline p;
    private final TransactionControl transactions;

    TransactionRead(Pipeline p, TransactionControl transactions) {
        this.p = p;
        this.transactions = transactions;
    }

    /** @param only the backends that may serve it (the session's home), or null: where routing says */
    Result read(Request r, SqlAnalysis a, SessionState s, Transaction t, List<Backend> only) throws SQLException {
        while (true) {
            List<Backend> candidates = new ArrayList<>();
            for (Backend b : only != null ? only : p.routing().read(a, p.backends().enabled()).candidates()) {
                if (t.branches().containsKey(b) && b.isEnabled()) {
                    candidates.add(b);
                }
            }
            if (candidates.isEmpty()) {
                transactions.rollbackQuietly(s);
                throw p.backends().noBackend();
            }
            List<Backend> mine = s.tails().caughtUp(candidates);
            Collection<String> resources = p.scheduler().readResources(a);
            Backend b = p.balancer().choose(s.locksReads() ? Freshness.choosable(p, mine, resources, true) : mine);
            b.readStarted(); // never held back: the transaction may hold locks others wait for
            try {
                if (s.locksReads()) {
                    Freshness.awaitChosen(p, b, resources, true);
                }
                return p.reads().run(b, t.branches().get(b), r, s.user(), s.settings());
            } catch (SQLException failure) {
                SQLException e = SqlStates.normalize(failure, b.dialect());
                if (BackendErrors.isConnectionFailure(e)) {
                    p.statistics().readRetry();
                    Closeables.closeQuietly(t.branches().remove(b));
                    if (b.leaveUnlessItConnects("connection failed during a read: " + e.getMessage())) {
                        continue;
                    }
                    // only this branch's session ended, and its server rolled the branch back: so must the others
                    transactions.rollbackQuietly(s);
                    throw Transaction.sessionEnded(b.name(), e);
                }
                if (b.dialect() == Engine.POSTGRESQL) {
                    // PostgreSQL aborts the whole transaction on an error, on that backend only:
                    // keep the branches alike by ending the transaction everywhere.
                    t.doom(new SQLException("current transaction is aborted, commands ignored until end of"
                            + " transaction block", SqlState.IN_FAILED_SQL_TRANSACTION.code()));
                }
                throw e;
            }
        }
    }
}
