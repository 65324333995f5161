package org.phalanx.requestmanager.read;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.QueryTimeouts;
import org.phalanx.requestmanager.backend.SqlStates;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;

/**
 * A read outside a begun transaction, on a pooled connection. A read its query timeout cancelled
 * fails at once (tried on each backend in turn, it lasted the timeout times their number). A read's
 * error never disables a backend: a statement error (the engine refused it: an unknown function, a type error) is tried
 * on a backend of another engine, since in a mixed virtual database one engine may run what
 * another refuses, and reaches the client only once every engine serving the read refused it;
 * any other error is tried on every other backend. Only a failed connection takes a backend out of
 * service, to be caught up by replay (and the read goes on elsewhere, unseen by the client), and
 * only if the backend no longer connects: a read that ends its own session (pg_terminate_backend
 * of itself) fails on each backend in turn and reaches the client, leaving them all in service.
 */
final class AutoCommitRead {
    private final Pipeline p;

    AutoCommitRead(Pipeline p) {
        this.p = p;
    }

    /** @param only the backends that may serve it (the session's home), or null: where routing says */
    Result read(Request r, SqlAnalysis a, SessionState s, List<Backend> only) throws SQLException {
        Set<Backend> tried = new HashSet<>();
        Set<Backend> sessionEnded = new HashSet<>();
        Set<Engine> refusing = EnumSet.noneOf(Engine.class);
        SQLException firstError = null;
        while (true) {
            List<Backend> candidates = candidates(a, only);
            candidates.removeAll(tried);
            candidates.removeIf(c -> refusing.contains(c.dialect())); // it would refuse again
            if (candidates.isEmpty()) {
                throw firstError != null ? firstError : p.backends().noBackend();
            }
            List<Backend> mine = s.tails().caughtUp(candidates);
            Collection<String> resources = p.scheduler().readResources(a);
            Backend b = p.admission().admit(Freshness.choosable(p, mine, resources, s.locksReads()),
                    r.queryTimeoutSeconds());
            if (b == null) {
                continue; // taken out of service while the read waited: route again
            }
            tried.add(b);
            try {
                Freshness.awaitChosen(p, b, resources, s.locksReads());
                return p.reads().run(b, null, r, s.user(), s.settings());
            } catch (SQLException failure) {
                SQLException e = SqlStates.normalize(failure, b.dialect());
                if (QueryTimeouts.expired(e, r.queryTimeoutSeconds())) {
                    throw e; // its time is up: elsewhere it would run as long again (the timeout times the backends)
                }
                p.statistics().readRetry();
                if (BackendErrors.isConnectionFailure(e)) {
                    if (b.leaveUnlessItConnects("connection failed during a read: " + e.getMessage())) {
                        continue;
                    }
                    if (sessionEnded.add(b)) {
                        tried.remove(b); // only that pooled connection was killed: once more there, on a new one
                        continue;
                    }
                }
                firstError = firstError == null ? e : firstError;
                if (BackendErrors.isStatementError(e)) {
                    refusing.add(b.dialect());
                }
            }
        }
    }

    private List<Backend> candidates(SqlAnalysis a, List<Backend> only) throws SQLException {
        List<Backend> enabled = p.backends().enabled();
        if (only == null) {
            return new ArrayList<>(p.routing().read(a, enabled).candidates());
        }
        List<Backend> candidates = new ArrayList<>(only);
        candidates.retainAll(enabled);
        return candidates;
    }
}
