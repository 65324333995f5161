package org.phalanx.requestmanager.session;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.SessionCommand;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.backend.SqlStates;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.read.ReadStage;
import org.phalanx.requestmanager.scheduler.Access;

/**
 * Runs a session command ({@code SET search_path ...}, {@code RESET ALL}): it changes the
 * session's settings, which every backend connection serving the session then carries (see
 * {@link SessionSettings}). It takes no lock and is not ordered with other sessions' writes, so it
 * never waits for their transactions, as on one database. It is first tried on each backend (a
 * connection taken with the new settings, then given back) so a wrong name or value fails as the
 * engine says and changes nothing; inside a transaction it also runs on the transaction's
 * branches, after the transaction's earlier statements there.
 */
final class SessionParameters {
    private SessionParameters() {
    }

    static void run(Pipeline p, SessionState s, Request r, ReadStage reads) throws SQLException {
        String sql;
        try {
            sql = SessionCommand.withParameters(r.sql(), r.params());
        } catch (IllegalArgumentException e) {
            throw new SQLFeatureNotSupportedException(e.getMessage(), SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        SessionCommand command = computed(SessionCommand.parse(sql), p, s, r, reads);
        List<Backend> backends = p.backends().enabled();
        if (backends.isEmpty()) {
            throw p.backends().noBackend();
        }
        boolean untilTransactionEnds = command.local() && backends.stream().anyMatch(b -> b.engine() == Engine.POSTGRESQL);
        if (untilTransactionEnds && s.autoCommit()) {
            return; // as PostgreSQL: a warning, and nothing changes
        }
        SessionSettings before = s.settings();
        SessionSettings next = before;
        if (command.resetAll()) {
            next = next.only(SessionCommand.ROLES);
        }
        next = next.without(command.reset());
        for (SessionCommand.Assignment a : command.set()) {
            next = next.with(a.name(), a.sql(), p.statements().settingsOnlyOn());
        }
        for (Backend b : backends) {
            // on a pooled connection, applied when taken, reset when closed (its home gets them when next taken)
            try (Connection tried = b.connectionFor(s.user(), next.at(null))) {
                tried.clearWarnings();
            } catch (SQLException e) {
                throw SqlStates.normalize(e, b.dialect());
            }
        }
        Transaction t = s.begunTransaction();
        if (t != null) {
            switchBranches(s, t, next);
        }
        if (!s.autoCommit() && backends.stream().allMatch(b -> b.engine() == Engine.POSTGRESQL)) {
            s.settingsUndoneByRollback(); // PostgreSQL's SET is transactional; MariaDB's is not
        }
        if (!s.autoCommit()) {
            List<String> names = new ArrayList<>(command.reset());
            command.set().forEach(a -> names.add(a.name()));
            s.setInTransaction(names, before, untilTransactionEnds);
        }
        s.settings(next);
    }

    /**
     * The command with the values of its expressions ({@code SET @v = NOW()}, a subquery) computed
     * once, by a read as the session would make it, so every backend gets the same value.
     */
    private static SessionCommand computed(SessionCommand command, Pipeline p, SessionState s, Request r, ReadStage reads)
            throws SQLException {
        List<String> expressions = command.expressions();
        if (expressions.isEmpty()) {
            return command;
        }
        String select = "SELECT " + String.join(", ", expressions);
        Request read = new Request(select, List.of(), Request.Expect.ROWS, null, 0, 0, r.queryTimeoutSeconds());
        List<Object> values = new ArrayList<>();
        try (Result result = reads.read(read, p.analyzer().analyze(select), s).result()) {
            Object[] row = firstRow(result);
            for (int i = 0; i < expressions.size(); i++) {
                values.add(row[i]);
            }
        }
        try {
            return command.computedAs(values);
        } catch (IllegalArgumentException e) {
            throw new SQLFeatureNotSupportedException(e.getMessage(), SqlState.FEATURE_NOT_SUPPORTED.code());
        }
    }

    private static Object[] firstRow(Result result) throws SQLException {
        if (result instanceof Result.Cached cached && !cached.rows().isEmpty()) {
            return cached.rows().get(0);
        }
        if (result instanceof Result.Rows rows) {
            if (!rows.prefix().isEmpty()) {
                return rows.prefix().get(0);
            }
            ResultSet rs = rows.resultSet();
            if (rs.next()) {
                Object[] row = new Object[rs.getMetaData().getColumnCount()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                return row;
            }
        }
        throw new SQLException("computing a user variable's value returned no row", SqlState.INTERNAL_ERROR.code());
    }

    /** Each branch of the transaction to the new settings, in its order there; waits until they have. */
    private static void switchBranches(SessionState s, Transaction t, SessionSettings next) throws SQLException {
        SessionSettings now = s.settings();
        List<CompletableFuture<?>> done = new ArrayList<>();
        for (Map.Entry<Backend, Connection> branch : t.branches().entrySet()) {
            Backend b = branch.getKey();
            Connection c = branch.getValue();
            done.add(s.tails().enqueue(b, Access.NOTHING, () -> {
                b.switchSettings(c, now, next);
                return null;
            }));
        }
        for (CompletableFuture<?> f : done) {
            try {
                f.join();
            } catch (java.util.concurrent.CompletionException e) {
                if (e.getCause() instanceof SQLException failure) {
                    throw failure;
                }
                throw e;
            }
        }
    }
}
