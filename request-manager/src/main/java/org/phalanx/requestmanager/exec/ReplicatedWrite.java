package org.phalanx.requestmanager.exec;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.ToLongFunction;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendDisabledException;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.SqlStates;
import org.phalanx.requestmanager.config.WaitPolicy;

/**
 * One write, commit or rollback sent to several backends: the backends vote with their
 * {@link Outcome}, the agreed outcome is the result, and backends that disagree with it are
 * reported (docs/architecture.md, "Who is right").
 *
 * <p>The agreed outcome is the one a strict majority of the voting backends reached. Without a
 * majority (a tie, or fewer than three voters that differ) it is the one the client was already
 * given, or else the refusal: a refusal changed nothing, so it is the outcome every backend can
 * be brought back to. A backend that lost its connection or left service does not vote.
 *
 * <p>The client is answered with a success once as many backends as the wait policy asks for
 * reached that same success; a refusal, or no such agreement, is answered once every backend
 * has finished. Backends that disagree are reported before that last answer.
 */
public final class ReplicatedWrite<T> {
    /**
     * No backend voted: each lost its connection or left service while it ran the request, so
     * whether it ran anywhere is not known (the recovery log holds it: a backend enabled later gets
     * it, unless its record shows it ran).
     */
    public static final class EveryBackendLeft extends SQLNonTransientConnectionException {
        EveryBackendLeft() {
            super("every backend left service during the request", SqlState.CONNECTION_FAILURE.code());
        }
    }

    /** Whether {@code e} (or what caused it) says that no backend voted. */
    public static boolean everyBackendLeft(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof EveryBackendLeft) {
                return true;
            }
        }
        return false;
    }

    private static final Logger LOG = LogManager.getLogger(ReplicatedWrite.class);

    /** Reactions to a backend whose outcome is not the agreed one. */
    public interface Disagreement {
        /** It refused, or counted other rows, where the agreed outcome is a success (or its connection was lost). */
        void failed(Backend backend, SQLException error);

        /** It succeeded where the agreed outcome is this refusal. */
        void succeeded(Backend backend, SQLException agreedError);
    }

    /** The agreed outcome, with the value or error that carries it, and the backends that reached it. */
    public record Verdict<T>(Outcome outcome, T value, SQLException error, Set<Backend> agreeing) {
        /** Whether a backend that returned this value agrees (and may commit it). */
        public boolean agreesWith(Outcome mine) {
            return outcome.equals(mine);
        }
    }

    private record Vote<T>(Outcome outcome, T value, SQLException error) {
    }

    private final Map<Backend, CompletableFuture<T>> futures;
    private final int needed;
    private final ToLongFunction<T> count;
    private final Disagreement disagreement;
    private final CompletableFuture<T> answer = new CompletableFuture<>();
    private final CompletableFuture<Verdict<T>> verdict = new CompletableFuture<>();
    private final Map<Backend, Vote<T>> votes = new LinkedHashMap<>();
    private Vote<T> answered;
    private int finished;

    /**
     * @param count the update count a success is compared on
     */
    public ReplicatedWrite(Map<Backend, CompletableFuture<T>> futures, WaitPolicy policy, ToLongFunction<T> count,
                           Disagreement disagreement) {
        this.futures = futures;
        this.count = count;
        this.disagreement = disagreement;
        int n = futures.size();
        this.needed = switch (policy) {
            case FIRST -> 1;
            case MAJORITY -> n / 2 + 1;
            case ALL -> n;
        };
        futures.forEach((b, f) -> f.whenComplete((v, e) -> done(b, v, e)));
    }

    private void done(Backend backend, T value, Throwable error) {
        Throwable cause = unwrap(error);
        boolean lost = error != null && !(cause instanceof BackendDisabledException)
                && BackendErrors.isConnectionFailure(asSqlException(error));
        if (lost) {
            // a lost connection says nothing about the statement: out at once, not when the others finish
            disagreement.failed(backend, asSqlException(error));
        }
        boolean last;
        synchronized (this) {
            finished++;
            last = finished == futures.size();
            if (error == null) {
                Vote<T> vote = new Vote<>(Outcome.success(count.applyAsLong(value)), value, null);
                votes.put(backend, vote);
                if (answered == null && !last && agreeing(vote.outcome()) >= needed) {
                    answered = firstWith(vote.outcome());
                    answer.complete(answered.value());
                }
            } else if (!lost && !(cause instanceof BackendDisabledException)) {
                SQLException e = SqlStates.normalize(asSqlException(error), backend.dialect());
                votes.put(backend, new Vote<>(Outcome.refusal(e), null, e));
            }
        }
        if (last) {
            resolve();
        }
    }

    private Vote<T> firstWith(Outcome outcome) {
        for (Vote<T> v : votes.values()) {
            if (v.outcome().equals(outcome)) {
                return v;
            }
        }
        throw new IllegalStateException("no vote for " + outcome);
    }

    private int agreeing(Outcome outcome) {
        int n = 0;
        for (Vote<T> v : votes.values()) {
            if (v.outcome().equals(outcome)) {
                n++;
            }
        }
        return n;
    }

    /** Every backend has finished: settles the agreed outcome, reports who disagrees, answers. */
    private void resolve() {
        Vote<T> agreed;
        Vote<T> told;
        Map<Backend, Vote<T>> all;
        synchronized (this) {
            all = new LinkedHashMap<>(votes);
            agreed = agreed();
            told = answered;
        }
        if (agreed == null) {
            SQLException none = new EveryBackendLeft();
            verdict.completeExceptionally(none);
            answer.completeExceptionally(none);
            return;
        }
        Set<Backend> agreeing = new LinkedHashSet<>();
        all.forEach((b, v) -> {
            if (v.outcome().equals(agreed.outcome())) {
                agreeing.add(b);
            }
        });
        verdict.complete(new Verdict<>(agreed.outcome(), agreed.value(), agreed.error(), agreeing));
        if (told != null && !told.outcome().equals(agreed.outcome())) {
            LOG.error("the client was told {} but the backends agreed on {}: the replicas had diverged before",
                    told.outcome(), agreed.outcome());
        }
        for (Map.Entry<Backend, Vote<T>> e : all.entrySet()) {
            Outcome mine = e.getValue().outcome();
            if (mine.equals(agreed.outcome()) || !mine.success() && !agreed.outcome().success()) {
                continue; // refusals change nothing, whatever their class: no data diverged
            }
            if (agreed.outcome().success()) {
                disagreement.failed(e.getKey(), mine.success()
                        ? new SQLException("changed " + mine.count() + " rows where the others changed "
                                + agreed.outcome().count(), SqlState.DATA_EXCEPTION.code())
                        : e.getValue().error());
            } else {
                disagreement.succeeded(e.getKey(), agreed.error());
            }
        }
        if (agreed.error() != null) {
            answer.completeExceptionally(agreed.error());
        } else {
            answer.complete(agreed.value());
        }
    }

    /** The majority's vote; without one, the answered vote, else the most common refusal, else the first vote. */
    private Vote<T> agreed() {
        List<Vote<T>> all = new ArrayList<>(votes.values());
        Vote<T> refusal = null;
        int refusals = 0;
        for (Vote<T> v : all) {
            int n = agreeing(v.outcome());
            if (2 * n > all.size()) {
                return v;
            }
            if (!v.outcome().success() && n > refusals) {
                refusal = v;
                refusals = n;
            }
        }
        if (answered != null) {
            return answered;
        }
        if (refusal != null) {
            return refusal;
        }
        return all.isEmpty() ? null : all.get(0);
    }

    /** Blocks until the wait policy is satisfied; throws the agreed error. */
    public T await() throws SQLException {
        return get(answer);
    }

    /** The agreed outcome, once every backend has finished; completes exceptionally if none voted. */
    public CompletableFuture<Verdict<T>> verdict() {
        return verdict;
    }

    private static <V> V get(CompletableFuture<V> f) throws SQLException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for backends", SqlState.OPERATION_CANCELED.code(), e);
        } catch (ExecutionException e) {
            throw asSqlException(e.getCause());
        }
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
