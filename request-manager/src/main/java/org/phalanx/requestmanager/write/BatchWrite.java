package org.phalanx.requestmanager.write;

import java.sql.BatchUpdateException;
import java.sql.Connection;
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
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.api.BatchOutcome;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.RequestId;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.exec.ReplicatedWrite;
import org.phalanx.requestmanager.exec.StatementRunner;
import org.phalanx.requestmanager.hetero.ControllerKeys;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.recovery.LoggedSettings;
import org.phalanx.requestmanager.recovery.LoggedValues;
import org.phalanx.requestmanager.recovery.RememberedKeys;
import org.phalanx.requestmanager.scheduler.Access;

/**
 * A prepared statement's batch inside a transaction, as one write: locked once (the union of its
 * elements' accesses), one log entry per element, and one JDBC batch per backend — one round trip
 * there (pgjdbc's {@code reWriteBatchedInserts} makes it one multi-row INSERT), where element by
 * element took one scheduled, awaited write each.
 *
 * <p>Only where that changes nothing the client can see: one engine (a mixed vdb compares every
 * statement's outcomes), no DDL, no macro to rewrite, and keys the controller chooses given as
 * parameters (so every element keeps one text). Should an element fail, the transaction is doomed,
 * as PostgreSQL aborts it: it can only roll back, so what the elements before it did is never
 * committed on some replicas and not others.
 *
 * <p>An auto-commit batch runs the same way inside a transaction of its own, committed after its
 * last element: one unit, as pgjdbc runs it (one implicit transaction up to its Sync) and MariaDB
 * Connector/J (one bulk statement). Should an element fail, it all rolls back — on those engines
 * that is the outcome, nothing of the batch committed. sqlite-jdbc commits each element before the
 * failing one: on SQLite the batch then runs again element by element (the caller's fallback),
 * which commits those and fails where one database would.
 *
 * <p>Such a batch is one request whose outcome a driver that lost its controller may ask about: each
 * element's write and the commit carry its id ({@link RequestId.Units#TRANSACTION}), and each
 * element's count and keys are told to the log once the batch has run, before the commit.
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

    /** One element of a batch: its text (the same for every element of a prepared batch) and its request. */
    private record Element(String sql, SqlAnalysis a, Request request) {
    }

    /** The elements' update counts (and keys); null when the batch must run element by element. */
    BatchOutcome write(String sql, List<List<Object>> parameterSets, List<String> keyColumns, int timeout, SqlAnalysis a,
                       SessionState s) throws SQLException {
        List<Element> elements = new ArrayList<>();
        for (List<Object> set : parameterSets) {
            elements.add(new Element(sql, a, new Request(sql, set, Request.Expect.UPDATE_COUNT, keyColumns, 0, 0, timeout)));
        }
        return write(elements, true, s);
    }

    /**
     * A statement's batch of SQL texts, as one write like a prepared batch; null when it must run
     * element by element: not all plain writes, or MariaDB backends (Connector/J goes on after a
     * failed element, committing the others, which one transaction could not give).
     */
    BatchOutcome writeTexts(List<String> statements, int timeout, SessionState s) throws SQLException {
        if (p.backends().enabled().stream().anyMatch(b -> b.engine() == Engine.MARIADB)) {
            return null;
        }
        List<Element> elements = new ArrayList<>();
        for (String sql : statements) {
            elements.add(new Element(sql, p.analyzer().analyze(sql),
                    new Request(sql, List.of(), Request.Expect.UPDATE_COUNT, null, 0, 0, timeout)));
        }
        return write(elements, false, s);
    }

    private BatchOutcome write(List<Element> elements, boolean prepared, SessionState s) throws SQLException {
        List<Backend> enabled = p.backends().enabled();
        if (elements.size() < 2 || enabled.stream().map(Backend::dialect).distinct().count() > 1
                || elements.stream().anyMatch(e -> e.a().kind() != StatementKind.WRITE || e.a().allTables()
                || e.a().hasMacros())) {
            return null;
        }
        if (s.autoCommit()) {
            return inOwnTransaction(elements, prepared, s, enabled);
        }
        for (Element e : elements) {
            WriteStage.refuseIfTooLarge(e.request(), enabled);
        }
        Transaction t = s.currentTransaction(p.scheduler());
        transactions.throwIfDoomed(s, t);
        try {
            return run(elements, prepared, s, t, enabled);
        } catch (SQLTransactionRollbackException e) {
            transactions.rollbackQuietly(s);
            throw e;
        }
    }

    /** An auto-commit batch as one transaction; null when it must run element by element. */
    private BatchOutcome inOwnTransaction(List<Element> elements, boolean prepared, SessionState s, List<Backend> enabled)
            throws SQLException {
        BatchOutcome outcome;
        RequestId id = s.requestId();
        if (id != null) {
            s.requestId(id.logging(RequestId.Units.TRANSACTION));
        }
        s.autoCommit(false);
        try {
            try {
                outcome = write(elements, prepared, s);
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

    /** The id its writes carry: the request's, when it is an auto-commit batch run as its own transaction. */
    private static String asked(SessionState s) {
        RequestId id = s.requestId();
        return id != null && id.units() == RequestId.Units.TRANSACTION ? id.toString() : null;
    }

    private BatchOutcome run(List<Element> elements, boolean prepared, SessionState s, Transaction t,
                             List<Backend> enabled) throws SQLException {
        long schemaSeen = rows.schemaChanges();
        List<Access> tables = new ArrayList<>();
        List<Access> refined = new ArrayList<>();
        int rowLevel = 0;
        for (Element e : elements) {
            Access elementTables = p.scheduler().lockResources(e.a());
            Access element = rows.refine(elementTables, e.a(), e.sql(), e.request().params(), enabled, s.user());
            rowLevel += RowLocking.isRowLevel(element) ? 1 : 0;
            tables.add(elementTables);
            refined.add(element);
        }
        Access tableLevel = Access.unionOf(tables);
        Access access = Access.unionOf(refined);
        p.scheduler().acquire(t.id(), access);
        if (rows.schemaChangedSince(schemaSeen, access)) { // see WriteStage
            access = rows.afterSchemaChange(tableLevel, access, enabled, s.user());
            p.scheduler().acquire(t.id(), access);
            rowLevel = 0;
        }
        List<Backend> writeTargets = p.routing().writeTargets(elements.get(0).a(), enabled);
        for (Element e : elements) {
            if (!p.routing().writeTargets(e.a(), enabled).equals(writeTargets)) {
                return null; // partial replication: elements going to different backends
            }
        }
        List<Backend> targets = WriteStage.joined(s, t, writeTargets, access);
        if (targets.isEmpty()) {
            throw p.backends().noBackend();
        }
        // the texts each backend runs, element by element (a prepared batch's last one is its statement)
        Map<Backend, List<String>> statements = new LinkedHashMap<>();
        List<String> completed = new ArrayList<>();
        ChosenKeys.Plan keyPlan = null; // a prepared batch's, whose keys the controller chooses
        for (int i = 0; i < elements.size(); i++) {
            Element e = elements.get(i);
            if (prepared && i > 0) {
                if (keyPlan == null) { // the keys it gives itself move the counter past them
                    keys.plan(completed.get(0), e.request().params(), e.a(), targets, s, access);
                }
                continue;
            }
            String sql = defaults.complete(e.sql(), e.a(), s, t, targets, rows.schemaChanges(),
                    SessionTimeZone.of(p.macros(), s.settings(), p.backends().dialects()));
            ChosenKeys.Plan plan = keys.plan(sql, e.request().params(), e.a(), targets, s, access);
            if (plan != null) {
                sql = prepared ? plan.template(e.request().params()) : null;
                if (sql == null) {
                    return null; // keys written into each text: element by element (what it holds, it keeps)
                }
                keyPlan = plan;
            }
            completed.add(sql);
            for (Backend b : targets) {
                List<String> forBackend = p.statements().forBackend(b, sql, false);
                if (!prepared && forBackend.size() != 1) {
                    return null;
                }
                statements.computeIfAbsent(b, x -> new ArrayList<>()).addAll(forBackend);
            }
        }
        List<Request> requests = elements.stream().map(Element::request).toList();
        long bytes = 2 * requests.stream().mapToLong(Request::approximateBytes).sum();
        Access locked = access;
        Map<Backend, CompletableFuture<BatchOutcome>> futures = new LinkedHashMap<>();
        String requestId = asked(s);
        long[] positions = new long[elements.size()];
        Request[] sent = requests.toArray(new Request[0]); // with the keys chosen for them, if any
        long[][] chosenKeys = new long[elements.size()][];
        ChosenKeys.Plan plan = keyPlan;
        ClientThreadCopy copy = new ClientThreadCopy(statements.keySet());
        try {
            for (int i = 0; i < elements.size(); i++) {
                Request r = requests.get(i);
                String logged = LoggedSettings.toLog(s.settings(), completed.get(prepared ? 0 : i));
                boolean last = i == elements.size() - 1;
                int element = i;
                p.scheduler().order(position -> {
                    positions[element] = position;
                    if (plan != null) {
                        chosenKeys[element] = keys.next(plan, plan.insert().rows());
                        sent[element] = plan.withKeys(chosenKeys[element], r).request();
                    }
                    p.log().append(LogEntry.write(position, t.id(), s.user(), logged, LoggedValues.toLog(sent[element].params()),
                            TransactionControl.names(statements.keySet())).withRequestId(requestId));
                    if (last) { // every element is logged: the whole batch runs as one task on each backend
                        List<Request> batch = List.of(sent);
                        for (Map.Entry<Backend, List<String>> e : statements.entrySet()) {
                            Backend b = e.getKey();
                            Connection branch = t.branches().get(b);
                            futures.put(b, copy.enqueue(s.tails(), b, locked, bytes, () -> {
                                // its connection is aborted if the backend hangs: the thread may be the client's
                                try (var running = b.running().startOn(branch, "a batch")) {
                                    return prepared ? StatementRunner.executeBatch(branch, e.getValue(), batch)
                                            : StatementRunner.executeTexts(branch, e.getValue(), batch.get(0).queryTimeoutSeconds());
                                } catch (java.sql.SQLException failure) {
                                    if (BackendErrors.isConnectionFailure(failure)) {
                                        t.branchLost(b); // its commit must not run there (Transaction.branchLost)
                                    }
                                    throw failure;
                                }
                            }));
                        }
                    }
                });
            }
        } finally {
            copy.run(); // now, whatever happened: later conflicting work waits for it
        }
        for (Element e : elements) {
            p.statistics().write();
            WriteStage.noteWrites(p, t, e.a(), e.request().params());
        }
        for (int i = 0; i < rowLevel; i++) {
            p.statistics().rowLevelWrite();
        }
        try {
            BatchOutcome outcome;
            try {
                outcome = new ReplicatedWrite<>(futures, p.waitPolicy(), o -> Arrays.hashCode(o.counts()),
                        Divergence.ofWrite(t, b -> false)).await();
            } finally {
                for (Element e : elements) { // the engines may have chosen keys
                    keys.ran(e.sql(), e.a(), ChosenKeys.reachesOtherTables(e.a(), tableLevel, access), plan);
                }
            }
            if (plan != null && requests.get(0).wantsKeys()) {
                outcome = new BatchOutcome(outcome.counts(), ControllerKeys.keysResult(plan.column(), plan.columnType(),
                        Arrays.stream(chosenKeys).flatMapToLong(Arrays::stream).toArray()));
            }
            if (requestId != null) {
                GeneratedKeys[] keys = RememberedKeys.perElement(outcome.counts(), outcome.generatedKeys());
                for (int i = 0; i < positions.length; i++) {
                    if (outcome.counts()[i] >= 0) { // not SUCCESS_NO_INFO (pgjdbc's rewritten inserts)
                        p.log().counted(positions[i], outcome.counts()[i], keys[i]);
                    }
                }
            }
            return outcome;
        } catch (SQLException failure) {
            SQLException e = failure;
            if (ReplicatedWrite.everyBackendLeft(failure)) {
                t.lostEverywhere(failure);
                e = t.doomed();
            } else {
                t.doom(new SQLException("current transaction is aborted after a failed batch (" + e.getMessage()
                        + "), commands ignored until end of transaction block", SqlState.IN_FAILED_SQL_TRANSACTION.code()));
            }
            throw e instanceof BatchUpdateException ? e : new BatchUpdateException(e.getMessage(), e.getSQLState(),
                    e.getErrorCode(), new long[0], e);
        }
    }
}
