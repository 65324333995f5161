package org.phalanx.requestmanager.write;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.ToLongFunction;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.requestmanager.exec.Outcome;
import org.phalanx.requestmanager.exec.ReplicatedWrite;
import org.phalanx.requestmanager.exec.WriteOutcome;

/**
 * An auto-commit write whose backends commit only once they have agreed on its outcome, for a
 * virtual database whose backends run different engines: the same statement can succeed on one
 * engine and be refused by another (SQLite divides by zero to NULL, PostgreSQL and MariaDB raise
 * 22012). Each backend runs the statement in a transaction, votes, and waits; a backend whose
 * outcome is not the agreed one rolls back, so nothing is disabled for a difference between
 * engines. The cost: every backend holds its transaction open until the slowest has run the
 * statement, and the client waits for the slowest backend's execution (not its commit).
 */
final class Agreement {
    /** Thrown on a backend that rolled its unit back because the others agreed on another outcome. */
    static final class Undone extends SQLException {
        Undone(Backend b, Outcome mine, Outcome agreed) {
            super("backend " + b.name() + " rolled back its " + mine + ": the backends agreed on " + agreed,
                    SqlState.TRANSACTION_ROLLBACK.code());
        }
    }

    private final Map<Backend, CompletableFuture<WriteOutcome>> executed = new LinkedHashMap<>();
    private final ReplicatedWrite<WriteOutcome> vote;

    private final ToLongFunction<WriteOutcome> count;

    Agreement(List<Backend> backends, ToLongFunction<WriteOutcome> count, ReplicatedWrite.Disagreement disagreement) {
        for (Backend b : backends) {
            executed.put(b, new CompletableFuture<>());
        }
        this.count = count;
        vote = new ReplicatedWrite<>(executed, WaitPolicy.ALL, count, disagreement);
    }

    /**
     * Called on a backend once the statement ran there, before its commit: votes and waits for
     * the agreed outcome; throws {@link Undone} (its caller rolls back) when it is another one.
     */
    void commitIfAgreed(Backend b, WriteOutcome mine) throws SQLException {
        executed.get(b).complete(mine);
        ReplicatedWrite.Verdict<WriteOutcome> agreed;
        try {
            agreed = vote.verdict().join();
        } catch (CompletionException e) {
            throw new SQLException("the backends reached no outcome", SqlState.CONNECTION_FAILURE.code(), e.getCause());
        }
        Outcome outcome = Outcome.success(count.applyAsLong(mine));
        if (!agreed.agreesWith(outcome)) {
            throw new Undone(b, outcome, agreed.outcome());
        }
    }

    /** The backend's run ended before it could vote (refused, lost, skipped): that is its vote. */
    void ended(Backend b, Throwable error) {
        executed.get(b).completeExceptionally(error);
    }

    /** Waits for the agreed outcome; throws the agreed refusal. */
    ReplicatedWrite.Verdict<WriteOutcome> await() throws SQLException {
        vote.await();
        return vote.verdict().join();
    }
}
