package org.phalanx.requestmanager.read;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.SqlStates;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.routing.ReadRoute;

/**
 * A read outside a begun transaction, on a pooled connection. A backend whose connection fails is
 * disabled and the read retried elsewhere, unseen by the client. Any other error is checked on a
 * second backend: if it fails there too the statement is at fault and the client gets the error;
 * if it succeeds the first backend has diverged and is disabled.
 */
final class AutoCommitRead {
    private final Pipeline p;

    AutoCommitRead(Pipeline p) {
        this.p = p;
    }

    Result read(Request r, SqlAnalysis a, SessionState s) throws SQLException {
        Set<Backend> tried = new HashSet<>();
        SQLException firstError = null;
        Backend firstFailed = null;
        while (true) {
            ReadRoute route = p.routing().read(a, p.backends().enabled());
            List<Backend> candidates = new ArrayList<>(route.candidates());
            candidates.removeAll(tried);
            if (candidates.isEmpty()) {
                throw firstError != null ? firstError : p.backends().noBackend();
            }
            Backend b = p.admission().admit(Freshness.freshest(s.tails().caughtUp(candidates),
                    p.scheduler().readResources(a)), r.queryTimeoutSeconds());
            if (b == null) {
                continue; // taken out of service while the read waited: route again
            }
            tried.add(b);
            try {
                Result result = p.reads().run(b, null, r, s.user());
                if (firstFailed != null && route.equivalent()) {
                    firstFailed.disable("failed a read that backend " + b.name() + " answered: "
                            + firstError.getMessage());
                }
                return result;
            } catch (SQLException failure) {
                SQLException e = SqlStates.normalize(failure, b.dialect());
                p.statistics().readRetry();
                if (BackendErrors.isConnectionFailure(e)) {
                    b.disable("connection failed during a read: " + e.getMessage());
                } else if (BackendErrors.isContention(e, b.dialect())) {
                    firstError = firstError == null ? e : firstError;
                } else if (firstError == null) {
                    firstError = e;
                    firstFailed = b;
                } else {
                    throw firstError;
                }
            }
        }
    }
}
