package org.phalanx.requestmanager.write;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.api.BatchOutcome;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.exec.ReplicatedWrite;
import org.phalanx.requestmanager.exec.StatementRunner;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.recovery.LoggedSettings;
import org.phalanx.requestmanager.recovery.LoggedValues;
import org.phalanx.requestmanager.scheduler.Access;

/**
 * A prepared statement's batch inside a transaction, as one write: locked once (the union of its
 * elements' accesses), one log entry per element, and one JDBC batch per backend — one round trip
 * there (pgjdbc's {@code reWriteBatchedInserts} makes it one multi-row INSERT), where element by
 * element took one scheduled, awaited write each.
 *
 * <p>Only where that changes nothing the client can see: one engine (a mixed vdb compares every
 * statement's outcomes), no DDL, no key chosen by the controller, no macro to rewrite. Should an
 * element fail, the transaction is doomed, as PostgreSQL aborts it: it can only roll back, so what
 * the elements before it did is never committed on some replicas and not others.
 *
 * <p>An auto-commit batch runs the same way inside a transaction of its own, committed after its
 * last element: one unit, as pgjdbc runs it (one implicit transaction up to its Sync) and MariaDB
 * Connector/J (one bulk statement). Should an element fail, it all rolls back — on those engines
 * that is the outcome, nothing of the batch committed. sqlite-jdbc commits each element before the
 * failing one: on SQLite the batch then runs again element by element (the caller's fallback),
 * which commits those and fails where one database would.
 */
final class BatchWrite {
    private final Pipeline p;
    private final ChosenKeys keys;
    private final TransactionControl transactions;
    private final RowLocking rows;
    private final DefaultValues defaults;

    BatchWrite(Pipeline p, ChosenKeys keys, TransactionControl transactions, RowLocking rows, DefaultValues defaults) {
        this.p = p;
        this.keys = keys;
        this.transactions = transactions;
        this.rows = rows;
        this.defaults = defaults;
    }

    /** The elements' update counts (and keys); null when the batch must run element by element. */
    BatchOutcome write(String sql, List<List<Object>> parameterSets, List<String> keyColumns, int timeout, SqlAnalysis a,
                       SessionState s) throws SQLException {
        List<Backend> enabled = p.backends().enabled();
        if (parameterSets.size() < 2 || a.kind() != StatementKind.WRITE || a.allTables()
                || a.hasMacros() || enabled.stream().map(Backend::dialect).distinct().count() > 1) {
            return null;
        }
        if (s.autoCommit()) {
            return inOwnTransaction(sql, parameterSets, keyColumns, timeout, a, s, enabled);
        }
        List<Request> elements = new ArrayList<>();
        for (List<Object> set : parameterSets) {
            Request r = new Request(sql, set, Request.Expect.UPDATE_COUNT, keyColumns, 0, 0, timeout);
            WriteStage.refuseIfTooLarge(r, enabled);
            elements.add(r);
        }
        Transaction t = s.currentTransaction(p.scheduler());
        transactions.throwIfDoomed(s, t);
        try {
            return run(sql, elements, a, s, t, enabled);
        } catch (SQLTransactionRollbackException e) {
            transactions.rollbackQuietly(s);
            throw e;
        }
    }

    /** An auto-commit batch as one transaction; null when it must run element by element. */
    private BatchOutcome inOwnTransaction(String sql, List<List<Object>> parameterSets, List<String> keyColumns,
                                          int timeout, SqlAnalysis a, SessionState s, List<Backend> enabled)
            throws SQLException {
        BatchOutcome outcome;
        s.autoCommit(false);
        try {
            try {
                outcome = write(sql, parameterSets, keyColumns, timeout, a, s);
            } catch (SQLException e) {
                transactions.rollbackQuietly(s);
                if (enabled.stream().noneMatch(b -> b.engine() == Engine.SQLITE)) {
                    throw e;
                }
                return null; // nothing committed: element by element, each committed as one database would
            }
            if (outcome == null) {
                transactions.rollback(s); // nothing was written; the locks it took go
                return null;
            }
            try {
                transactions.commit(s);
            } catch (SQLException e) {
                throw e instanceof BatchUpdateException ? e : new BatchUpdateException(e.getMessage(), e.getSQLState(),
                        e.getErrorCode(), new long[0], e);
            }
            return outcome;
        } finally {
            s.autoCommit(true);
        }
    }

    private BatchOutcome run(String text, List<Request> elements, SqlAnalysis a, SessionState s, Transaction t,
                       List<Backend> enabled) throws SQLException {
        Access tableLevel = p.scheduler().lockResources(a);
        long schemaSeen = rows.schemaChanges();
        Access access = Access.NOTHING;
        int rowLevel = 0;
        for (Request r : elements) {
            Access element = rows.refine(tableLevel, a, text, r.params(), enabled, s.user());
            rowLevel += RowLocking.isRowLevel(element) ? 1 : 0;
            access = access.union(element);
        }
        p.scheduler().acquire(t.id(), access);
        if (rows.schemaChanges() != schemaSeen) { // see WriteStage
            access = rows.afterSchemaChange(tableLevel, access, enabled, s.user());
            p.scheduler().acquire(t.id(), access);
            rowLevel = 0;
        }
        List<Backend> targets = WriteStage.joined(s, t, p.routing().writeTargets(a, enabled), access);
        if (targets.isEmpty()) {
            throw p.backends().noBackend();
        }
        String sql = defaults.complete(text, a, s, t, targets, rows.schemaChanges(), p.macros());
        if (keys.plan(text, elements.get(0).params(), a, targets.get(0), s, access) != null) {
            return null; // the controller chooses keys: element by element (what it holds, it keeps)
        }
        Map<Backend, List<String>> statements = new LinkedHashMap<>();
        for (Backend b : targets) {
            statements.put(b, p.statements().forBackend(b, sql, false));
        }
        long bytes = 2 * elements.stream().mapToLong(Request::approximateBytes).sum();
        Access locked = access;
        String logged = LoggedSettings.toLog(s.settings(), sql);
        Map<Backend, CompletableFuture<BatchOutcome>> futures = new LinkedHashMap<>();
        for (int i = 0; i < elements.size(); i++) {
            Request r = elements.get(i);
            boolean last = i == elements.size() - 1;
            p.scheduler().order(position -> {
                p.log().append(LogEntry.write(position, t.id(), s.user(), logged, LoggedValues.toLog(r.params()),
                        TransactionControl.names(statements.keySet())));
                if (last) { // every element is logged: the whole batch runs as one task on each backend
                    for (Map.Entry<Backend, List<String>> e : statements.entrySet()) {
                        Backend b = e.getKey();
                        futures.put(b, s.tails().enqueue(b, locked, bytes,
                                () -> StatementRunner.executeBatch(t.branches().get(b), e.getValue(), elements)));
                    }
                }
            });
        }
        for (int i = 0; i < elements.size(); i++) {
            p.statistics().write();
            WriteStage.noteWrites(p, t, a, elements.get(i).params());
        }
        for (int i = 0; i < rowLevel; i++) {
            p.statistics().rowLevelWrite();
        }
        try {
            return new ReplicatedWrite<>(futures, p.waitPolicy(), o -> Arrays.hashCode(o.counts()),
                    Divergence.ofWrite(t, b -> false)).await();
        } catch (SQLException e) {
            t.doom(new SQLException("current transaction is aborted after a failed batch (" + e.getMessage()
                    + "), commands ignored until end of transaction block", SqlState.IN_FAILED_SQL_TRANSACTION.code()));
            throw e instanceof BatchUpdateException ? e : new BatchUpdateException(e.getMessage(), e.getSQLState(),
                    e.getErrorCode(), new long[0], e);
        }
    }
}
