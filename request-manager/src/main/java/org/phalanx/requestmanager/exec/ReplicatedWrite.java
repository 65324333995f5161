package org.phalanx.requestmanager.exec;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendDisabledException;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.SqlStates;

/**
 * One write, commit or rollback sent to several backends: answers the client as the wait
 * policy says, and once every backend has finished, reacts to backends that disagree.
 *
 * <p>If every backend failed, they agree (a constraint violation, a syntax error): the client
 * gets the error and nobody is disabled. If some succeeded, each one that failed has diverged
 * and is reported to {@link Divergence} (which disables it, or dooms the transaction when the
 * failure was mere lock contention).
 */
public final class ReplicatedWrite<T> {

    /** Reaction to a backend that failed where another succeeded. */
    @FunctionalInterface
    public interface Divergence {
        void failed(Backend backend, SQLException error);
    }

    private final Map<Backend, CompletableFuture<T>> futures;
    private final int needed;
    private final CompletableFuture<T> answer = new CompletableFuture<>();
    private final Divergence divergence;
    private final Map<Backend, SQLException> failures = new LinkedHashMap<>();
    private int successes;
    private int finished;
    private int skipped;
    private T firstSuccess;

    public ReplicatedWrite(Map<Backend, CompletableFuture<T>> futures, WaitPolicy policy, Divergence divergence) {
        this.futures = futures;
        this.divergence = divergence;
        int n = futures.size();
        this.needed = switch (policy) {
            case FIRST -> 1;
            case MAJORITY -> n / 2 + 1;
            case ALL -> n;
        };
        futures.forEach((b, f) -> f.whenComplete((v, e) -> done(b, v, e)));
    }

    private void done(Backend backend, T value, Throwable error) {
        if (error != null && BackendErrors.isConnectionFailure(asSqlException(error))
                && !(unwrap(error) instanceof BackendDisabledException)) {
            // a lost connection says nothing about the statement: out at once, not when the others finish
            divergence.failed(backend, asSqlException(error));
        }
        List<Map.Entry<Backend, SQLException>> diverged = null;
        synchronized (this) {
            finished++;
            if (error == null) {
                successes++;
                if (firstSuccess == null) {
                    firstSuccess = value;
                }
            } else if (unwrap(error) instanceof BackendDisabledException) {
                skipped++; // left service meanwhile: neither agrees nor disagrees
            } else {
                failures.put(backend, SqlStates.normalize(asSqlException(error), backend.dialect()));
            }
            boolean all = finished == futures.size();
            if (successes >= needed && !all) {
                answer.complete(firstSuccess);
            }
            if (all) {
                if (successes > 0) {
                    diverged = new ArrayList<>(failures.entrySet());
                } else if (!failures.isEmpty()) {
                    answer.completeExceptionally(failures.values().iterator().next());
                } else {
                    answer.completeExceptionally(new SQLException("every backend left service during the request",
                            SqlState.CONNECTION_FAILURE.code()));
                }
            }
        }
        if (diverged != null) {
            // disabled before anyone waiting for every backend is answered
            for (Map.Entry<Backend, SQLException> e : diverged) {
                divergence.failed(e.getKey(), e.getValue());
            }
            answer.complete(firstSuccess);
        }
    }

    /** Blocks until the wait policy is satisfied; throws the agreed error if every backend failed. */
    public T await() throws SQLException {
        try {
            return answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for backends", SqlState.OPERATION_CANCELED.code(), e);
        } catch (ExecutionException e) {
            throw asSqlException(e.getCause());
        }
    }

    /** Completes when every backend has finished, whatever the outcome. */
    public CompletableFuture<Void> allFinished() {
        return CompletableFuture.allOf(futures.values().toArray(new CompletableFuture[0])).handle((v, e) -> null);
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static SQLException asSqlException(Throwable t) {
        t = unwrap(t);
        if (t instanceof SQLException s) {
            return s;
        }
        return new SQLException("backend failure: " + t, SqlState.INTERNAL_ERROR.code(), t);
    }
}
