package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransactionRollbackException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.Engine;
import org.phalanx.requestmanager.backend.ReadStatements;
import org.phalanx.requestmanager.backend.SqlStates;
import org.phalanx.requestmanager.hetero.ControllerKeys;
import org.phalanx.requestmanager.hetero.KeyedInsert;
import org.phalanx.requestmanager.exec.ReplicatedWrite;
import org.phalanx.requestmanager.exec.StatementRunner;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.api.RowReader;
import org.phalanx.requestmanager.recovery.AppliedPositions;
import org.phalanx.requestmanager.recovery.LoggedValues;
import org.phalanx.requestmanager.exec.WriteOutcome;
import org.phalanx.requestmanager.cache.ResultCache;
import org.phalanx.requestmanager.cache.Touch;
import org.phalanx.requestmanager.routing.ReadRoute;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.scheduler.LockManager;

/**
 * One client connection's transaction state and request handling. Methods are synchronized so
 * a shutdown closing the session waits for the request in progress.
 */
final class VirtualSession implements Session {
    private static final Logger LOG = LogManager.getLogger(VirtualSession.class);

    private final RequestManager rm;
    private final String user;
    private boolean autoCommit = true;
    /** The transaction was opened by a BEGIN statement: COMMIT/ROLLBACK restore auto-commit. */
    private boolean begunBySql;
    private boolean readOnly;
    private int isolation = Connection.TRANSACTION_READ_COMMITTED;
    private boolean isolationSet;
    private Transaction tx;
    /** Whether the statement being executed was answered from the result cache (SQL statistics). */
    private boolean answeredFromCache;
    /**
     * This session's last queued task per backend. A read waits until its backend has run the
     * session's earlier writes (read-your-writes under the 'first' policy).
     */
    private final Map<Backend, CompletableFuture<?>> tails = new HashMap<>();
    private boolean closed;

    VirtualSession(RequestManager rm, String user) {
        this.rm = rm;
        this.user = user;
    }

    @Override
    public String virtualUser() {
        return user;
    }

    @Override
    public synchronized boolean getAutoCommit() {
        return autoCommit;
    }

    @Override
    public synchronized void setAutoCommit(boolean on) throws SQLException {
        checkOpen();
        if (on && !autoCommit) {
            commit();
        }
        autoCommit = on;
        begunBySql = false;
    }

    @Override
    public synchronized void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        if (tx != null && tx.begun()) {
            throw new SQLException("cannot change the isolation level inside a transaction", "25001");
        }
        isolation = level;
        isolationSet = true;
    }

    @Override
    public synchronized int getTransactionIsolation() {
        return isolation;
    }

    @Override
    public synchronized void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        this.readOnly = readOnly;
    }

    @Override
    public synchronized Result execute(Request r) throws SQLException {
        checkOpen();
        long start = System.nanoTime();
        answeredFromCache = false;
        boolean failed = true;
        try {
            Result result = run(r);
            failed = false;
            return result;
        } finally {
            rm.statistics.statements().forSql(r.sql()).record(System.nanoTime() - start, failed, answeredFromCache);
        }
    }

    private Result run(Request r) throws SQLException {
        SqlAnalysis a = rm.analyzer.analyze(r.sql());
        try {
            switch (a.kind()) {
                case BEGIN:
                    if (autoCommit) {
                        autoCommit = false;
                        begunBySql = true;
                    }
                    return new Result.UpdateCount(0, null);
                case BEGIN_IMMEDIATE:
                    beginImmediate();
                    return new Result.UpdateCount(0, null);
                case COMMIT:
                case ROLLBACK:
                    if (!autoCommit) {
                        if (a.kind() == StatementKind.COMMIT) {
                            commit();
                        } else {
                            rollback();
                        }
                    }
                    if (begunBySql) {
                        autoCommit = true;
                        begunBySql = false;
                    }
                    return new Result.UpdateCount(0, null);
                case SAVEPOINT:
                    throw new SQLFeatureNotSupportedException("savepoints are not supported yet", "0A000");
                case READ:
                    if (r.expect() == Request.Expect.UPDATE_COUNT) {
                        throw new SQLException("the statement returns rows; use executeQuery or execute", "07000");
                    }
                    rm.statistics.read();
                    return read(r, a);
                default:
                    if (r.expect() == Request.Expect.ROWS && a.parsed() && !mayReturnRows(r.sql())) {
                        throw new SQLException("the statement does not return rows; use executeUpdate or execute", "07000");
                    }
                    rm.statistics.write();
                    return write(r, a);
            }
        } catch (SQLException e) {
            rm.statistics.error();
            throw e;
        }
    }

    /** Refuse before running, not after: a write run by mistake through executeQuery would stay applied. */
    private static boolean mayReturnRows(String sql) {
        String s = sql.toLowerCase(java.util.Locale.ROOT);
        return s.contains("select") || s.contains("returning") || s.contains("pragma") || s.contains("show")
                || s.contains("explain") || s.contains("values");
    }

    // ---------------------------------------------------------------- writes

    private Result write(Request r, SqlAnalysis a) throws SQLException {
        if (readOnly) {
            throw new SQLException("the connection is read-only", "25006");
        }
        Access access = rm.lockResources(a);
        boolean implicit = autoCommit;
        Transaction t = implicit ? null : currentTransaction();
        long txId = implicit ? rm.nextTransactionId() : t.id;
        if (t != null) {
            throwIfDoomed(t);
        }
        try {
            acquire(txId, access);
            String sql = a.hasMacros() ? rm.rewriteMacros(r.sql()) : r.sql();
            List<Backend> targets = rm.routing.writeTargets(a, rm.enabledBackends());
            if (!implicit) {
                join(t, targets);
                t.access = t.access.union(access);
                targets = new ArrayList<>(targets);
                targets.removeIf(b -> !t.branches.containsKey(b) || !b.isEnabled());
            }
            if (targets.isEmpty()) {
                throw rm.noBackend();
            }
            List<Backend> chosen = targets;
            KeyPlan keyPlan = keyPlan(sql, r.params(), a, chosen.get(0), t, access);
            // with keys chosen here the backends are not asked for theirs (their counters are not used)
            Request sent = keyPlan == null ? r : new Request(r.sql(), r.params(), r.expect(), null, r.maxRows(),
                    r.fetchSize(), r.queryTimeoutSeconds());
            boolean ddl = a.kind() == StatementKind.DDL;
            Map<Backend, CompletableFuture<WriteOutcome>> futures = new LinkedHashMap<>();
            long[] logPosition = new long[1];
            long[][] keys = new long[1][];
            CompletableFuture<?>[] logged = new CompletableFuture<?>[1];
            List<Runnable> schemaUndo = new ArrayList<>();
            rm.ordering.order(position -> {
                logPosition[0] = position;
                String statement = sql;
                if (keyPlan != null) {
                    keys[0] = rm.keys.next(keyPlan.tableKey(), keyPlan.insert().rows());
                    statement = keyPlan.insert().withKeys(keyPlan.column(), keys[0]);
                }
                // handed to the log first: an auto-commit write commits on a backend only once it is durable
                List<Object> logged0 = LoggedValues.toLog(r.params());
                CompletableFuture<Void> durable = rm.log(implicit
                        ? LogEntry.statement(position, user, statement, logged0, names(chosen))
                        : LogEntry.write(position, t.id, user, statement, logged0, names(chosen)));
                logged[0] = durable;
                for (Backend b : chosen) {
                    List<String> statements = rm.statements.forBackend(b, statement, ddl);
                    Callable<WriteOutcome> work = implicit
                            ? () -> runAutoCommit(b, statements, sent, position, durable)
                            : () -> StatementRunner.executeWrite(t.branches.get(b), statements, sent);
                    CompletableFuture<WriteOutcome> f = b.enqueue(access, tails.get(b), work);
                    tails.put(b, f);
                    futures.put(b, f);
                }
                if (a.ddl() != null) {
                    schemaUndo.addAll(followSchema(chosen, a, t));
                    forgetKeys(a);
                }
                if (implicit) {
                    rm.invalidateCache(RequestManager.writeTouches(a, r.params()));
                }
            });
            if (!implicit) {
                noteCacheWrites(t, a, r.params());
            }
            if (implicit) {
                rm.locks.releaseAll(txId); // queued everywhere: later conflicting writes queue behind it
            }
            ReplicatedWrite<WriteOutcome> w = new ReplicatedWrite<>(futures, rm.config().waitPolicy(),
                    (b, e) -> diverged(b, e, t, "a write"));
            WriteOutcome outcome;
            try {
                outcome = w.await();
            } catch (SQLException e) {
                for (int i = schemaUndo.size() - 1; i >= 0; i--) {
                    schemaUndo.get(i).run(); // the DDL failed everywhere: the schema view goes back
                }
                if (t != null && spansPostgresAndOthers(t)) {
                    // PostgreSQL aborted its branch, the other engines did not: end it everywhere
                    t.doomed = new SQLException("current transaction is aborted after an error (" + e.getMessage()
                            + "), commands ignored until end of transaction block", "25P02");
                }
                rm.logFailed(logPosition[0], user); // failed everywhere: replay may see it fail too
                RequestManager.awaitLogged(logged[0]);
                throw e;
            }
            RequestManager.awaitLogged(logged[0]); // durable in the recovery log before the reply
            if (implicit) {
                acknowledged(futures, access); // a transaction's writes become visible at its commit
            }
            if (keyPlan != null && r.wantsKeys()) {
                return new Result.UpdateCount(outcome.count(), ControllerKeys.keysResult(keyPlan.column(), keys[0]));
            }
            return outcome.toResult();
        } catch (SQLTransactionRollbackException e) {
            if (t != null) {
                rollbackQuietly();
            }
            throw e;
        } finally {
            if (implicit) {
                rm.locks.releaseAll(txId);
            }
        }
    }

    /** An INSERT whose key the controller chooses: its shape, its table and the key column it leaves out. */
    private record KeyPlan(KeyedInsert insert, String tableKey, String column) {
    }

    /**
     * With engines that disagree on counters, an INSERT leaving out its table's auto-generated key
     * gets keys chosen here (see {@link ControllerKeys}); null for any other statement. A table
     * not seen yet is learnt first on a backend that has applied every earlier write on it (this
     * transaction's own ones included); the scheduler lock held on the table keeps others out.
     */
    private KeyPlan keyPlan(String sql, List<Object> params, SqlAnalysis a, Backend backend, Transaction t,
                            Access access) throws SQLException {
        if (rm.keys == null || a.kind() != StatementKind.WRITE) {
            return null;
        }
        KeyedInsert insert = rm.keys.shape(sql);
        if (insert == null) {
            return null;
        }
        String tableKey = org.phalanx.requestmanager.routing.SchemaView.key(insert.table());
        if (!rm.keys.known(tableKey)) {
            learnKeys(backend, t, access, insert.table(), tableKey);
        }
        String column = rm.keys.keyColumn(tableKey).orElse(null);
        if (column == null) {
            return null;
        }
        if (insert.names(column)) {
            rm.keys.given(tableKey, insert.keysGiven(column, params));
            return null;
        }
        return new KeyPlan(insert, tableKey, column);
    }

    private void learnKeys(Backend b, Transaction t, Access access, String table, String tableKey)
            throws SQLException {
        Connection branch = t == null ? null : t.branches.get(b);
        List<CompletableFuture<ControllerKeys.Learnt>> learnt = new ArrayList<>(1);
        rm.ordering.order(position -> {
            CompletableFuture<ControllerKeys.Learnt> f = b.enqueue(access, tails.get(b), () -> {
                if (branch != null) {
                    return ControllerKeys.learn(branch, table);
                }
                try (Connection c = b.connectionFor(user)) {
                    return ControllerKeys.learn(c, table);
                }
            });
            tails.put(b, f);
            learnt.add(f);
        });
        try {
            ControllerKeys.Learnt l = learnt.get(0).join();
            rm.keys.learned(tableKey, l.column(), l.max());
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof SQLException s ? s
                    : new SQLException("could not read the keys of table " + table + ": " + e.getCause(), "XX000", e);
        }
    }

    /** A DDL statement may have changed a table's key column: learn it again at its next insert. */
    private void forgetKeys(SqlAnalysis a) {
        if (rm.keys != null) {
            rm.keys.forget(org.phalanx.requestmanager.routing.SchemaView.key(a.ddl().table()));
            if (a.ddl().newName() != null) {
                rm.keys.forget(org.phalanx.requestmanager.routing.SchemaView.key(a.ddl().newName()));
            }
        }
    }

    private static boolean spansPostgresAndOthers(Transaction t) {
        boolean postgres = false;
        boolean other = false;
        for (Backend b : t.branches.keySet()) {
            postgres |= b.dialect() == Engine.POSTGRESQL;
            other |= b.dialect() != Engine.POSTGRESQL;
        }
        return postgres && other;
    }

    /**
     * BEGIN IMMEDIATE: lock the whole database and join every backend now, so the reads that
     * follow see the latest committed state and nothing can change it before this transaction
     * writes (a safe read-then-write, as on SQLite itself).
     */
    private void beginImmediate() throws SQLException {
        if (readOnly) {
            throw new SQLException("the connection is read-only", "25006");
        }
        if (tx != null && tx.begun()) {
            throw new SQLException("a transaction is already in progress", "25001");
        }
        if (autoCommit) {
            autoCommit = false;
            begunBySql = true;
        }
        Transaction t = currentTransaction();
        Access all = Access.EVERYTHING;
        try {
            acquire(t.id, all);
            join(t, rm.enabledBackends());
            t.access = t.access.union(all);
            // a barrier on every backend: the branch is ready once earlier conflicting work has run there
            rm.ordering.order(position -> {
                for (Backend b : t.branches.keySet()) {
                    tails.put(b, b.enqueue(all, tails.get(b), () -> null));
                }
            });
        } catch (SQLException e) {
            rollbackQuietly();
            if (begunBySql) {
                autoCommit = true;
                begunBySql = false;
            }
            throw e;
        }
    }

    /** Remembers what a transaction's write may change: the cache learns it when the transaction commits. */
    private void noteCacheWrites(Transaction t, SqlAnalysis a, List<Object> params) {
        if (a.allTables() || a.kind() == StatementKind.DDL) {
            t.writtenTables.add(LockManager.ALL);
        } else {
            for (String w : a.writtenTables()) {
                t.writtenTables.add(org.phalanx.requestmanager.routing.SchemaView.key(w));
            }
        }
        if (rm.cache != null && t.cacheWrites != null) {
            List<Touch> touches = RequestManager.writeTouches(a, params);
            if (touches == null) {
                t.cacheWrites = null;
            } else {
                t.cacheWrites.addAll(touches);
            }
        }
    }

    /**
     * The schema view follows a DDL statement as soon as it is queued, so the next statements are
     * routed where the table will be (queued behind the DDL there). Inside a transaction each
     * backend's rollback undoes it; the returned undos are for a DDL that fails everywhere.
     */
    private List<Runnable> followSchema(List<Backend> targets, SqlAnalysis a, Transaction t) {
        List<Runnable> undos = new ArrayList<>();
        for (Backend b : targets) {
            Runnable undo = rm.routing.applied(b, a);
            if (undo != null) {
                undos.add(undo);
                if (t != null) {
                    t.undoLater(b, undo);
                }
            }
        }
        return undos;
    }

    /**
     * An auto-commit write on one backend; lock contention there is waited out, since others may
     * have applied it. With a recovery log it runs as a short transaction that also records its
     * position on the backend and commits once its log entry is durable.
     */
    private WriteOutcome runAutoCommit(Backend b, List<String> statements, Request r, long position,
                                       CompletableFuture<?> durable) throws Exception {        long deadline = System.currentTimeMillis() + rm.lockTimeoutMillis();
        long pause = 5;
        while (true) {
            try (Connection c = b.connectionFor(user)) {
                if (!rm.recordsApplied(b)) {
                    return StatementRunner.executeWrite(c, statements, r);
                }
                return AppliedPositions.runUnit(c, b.engine(), statements.get(0), position, durable,
                        () -> StatementRunner.executeWrite(c, statements, r));
            } catch (SQLException e) {
                if (!BackendErrors.isContention(e, b.dialect()) || System.currentTimeMillis() + pause > deadline) {
                    rm.unitFailed(b, position);
                    throw e;
                }
                Thread.sleep(pause);
                pause = Math.min(pause * 2, 200);
            }
        }
    }

    /** A backend failed what others completed: it has diverged and leaves service, unless it was contention. */
    private void diverged(Backend b, SQLException e, Transaction t, String what) {
        if (t != null && BackendErrors.isContention(e, b.dialect())) {
            t.doomed = new SQLTransactionRollbackException("transaction rolled back: backend " + b.name()
                    + " could not apply it because of lock contention (" + e.getMessage() + ")", "40001");
            return;
        }
        b.disable("failed " + what + " that other backends completed: " + e.getMessage()
                + " [SQLState " + e.getSQLState() + "]");
    }

    private void acquire(long txId, Access access) throws SQLException {
        try {
            rm.locks.acquire(txId, access, rm.lockTimeoutMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for a lock", "HY008", e);
        }
    }

    private Transaction currentTransaction() {
        if (tx == null) {
            tx = new Transaction(rm.nextTransactionId());
        }
        return tx;
    }

    /**
     * Lazy begin: the transaction joins a backend the first time it writes there; the branch
     * takes its connection when the backend's queue reaches it (see {@link LazyBranch}). A backend
     * that cannot be reached then fails that statement and is disabled.
     */
    private void join(Transaction t, List<Backend> backends) {
        for (Backend b : backends) {
            if (!t.branches.containsKey(b)) {
                t.branches.put(b, LazyBranch.of(b, user, isolation, isolationSet));
            }
        }
    }

    private void throwIfDoomed(Transaction t) throws SQLException {
        SQLException reason = t.doomed;
        if (reason != null) {
            rollbackQuietly();
            throw reason;
        }
    }

    /**
     * Whether a transaction is open on some backend. Read without the session's lock, for the
     * management counters only: a stale answer there is harmless, blocking behind a request is not.
     */
    boolean hasOpenTransaction() {
        Transaction t = tx;
        return t != null && t.begun();
    }

    @Override
    public synchronized void commit() throws SQLException {
        checkOpen();
        Transaction t = tx;
        if (t == null) {
            return;
        }
        throwIfDoomed(t);
        end(t, true);
        rm.statistics.commit();
    }

    @Override
    public synchronized void rollback() throws SQLException {
        checkOpen();
        if (tx == null) {
            return;
        }
        end(tx, false);
        rm.statistics.rollback();
    }

    /** Queues the commit or rollback on every branch, releases the locks, waits per policy. */
    private void end(Transaction t, boolean commit) throws SQLException {
        tx = null;
        if (!t.begun()) {
            rm.locks.releaseAll(t.id);
            return;
        }
        Map<Backend, CompletableFuture<Void>> futures = new LinkedHashMap<>();
        long[] logPosition = new long[1];
        CompletableFuture<?>[] logged = new CompletableFuture<?>[1];
        try {
            rm.ordering.order(position -> {
                logPosition[0] = position;
                Set<String> joined = names(t.branches.keySet());
                // handed to the log first: a commit happens on a backend only once it is durable
                CompletableFuture<Void> durable = rm.log(commit ? LogEntry.commit(position, t.id, user, joined)
                        : LogEntry.rollback(position, t.id, user, joined));
                logged[0] = durable;
                for (Map.Entry<Backend, Connection> branch : t.branches.entrySet()) {
                    Backend b = branch.getKey();
                    Connection c = branch.getValue();
                    if (!b.isEnabled()) {
                        closeQuietly(c);
                        if (!commit) {
                            t.undoSchema(b);
                        }
                        continue;
                    }
                    CompletableFuture<Void> f = b.enqueue(t.access, tails.get(b), () -> {
                        try {
                            if (commit) {
                                commitBranch(b, c, position, durable);
                            } else {
                                c.rollback();
                                t.undoSchema(b);
                            }
                        } finally {
                            closeQuietly(c); // back to the pool, which rolls back anything left
                        }
                        return null;
                    });
                    tails.put(b, f);
                    futures.put(b, f);
                }
                if (commit && !t.writtenTables.isEmpty()) {
                    rm.invalidateCache(t.cacheWrites);
                }
            });
        } finally {
            rm.locks.releaseAll(t.id);
        }
        if (futures.isEmpty()) {
            if (commit) {
                throw rm.noBackend();
            }
            return;
        }
        try {
            new ReplicatedWrite<>(futures, rm.config().waitPolicy(),
                    (b, e) -> diverged(b, e, null, commit ? "a commit" : "a rollback")).await();
        } catch (SQLException e) {
            rm.logFailed(logPosition[0], user);
            RequestManager.awaitLogged(logged[0]);
            throw e;
        }
        RequestManager.awaitLogged(logged[0]);
        if (commit) {
            acknowledged(futures, t.access);
        }
    }

    /**
     * The client is about to be answered: backends still running this must not serve reads of
     * what it wrote meanwhile (what it only read, it did not change).
     */
    private static void acknowledged(Map<Backend, ? extends CompletableFuture<?>> futures, Access access) {
        futures.forEach((b, f) -> b.acknowledged(access.writes(), f));
    }

    /** With a recovery log, the branch records the commit's position in the same transaction. */
    private void commitBranch(Backend b, Connection c, long position, CompletableFuture<?> durable) throws SQLException {
        try {
            if (rm.recordsApplied(b)) {
                AppliedPositions.commit(c, b.engine(), position, durable);
            } else {
                c.commit();
            }
        } catch (SQLException e) {
            rm.unitFailed(b, position);
            throw e;
        }
    }

    private static Set<String> names(java.util.Collection<Backend> backends) {
        Set<String> names = new java.util.LinkedHashSet<>();
        for (Backend b : backends) {
            names.add(b.name());
        }
        return names;
    }

    private void rollbackQuietly() {
        try {
            if (tx != null) {
                end(tx, false);
                rm.statistics.rollback();
            }
        } catch (SQLException e) {
            LOG.warn("rollback failed: {}", e.getMessage());
        }
    }

    // ---------------------------------------------------------------- reads

    private Result read(Request r, SqlAnalysis a) throws SQLException {
        if (rm.cache != null && cacheable(r, a)) {
            Result cached = readThroughCache(r, a);
            if (cached != null) {
                return cached;
            }
        }
        return readUncached(r, a);
    }

    private static boolean cacheable(Request r, SqlAnalysis a) {
        return a.parsed() && !a.hasMacros() && !a.allTables() && !a.readTables().isEmpty() && !r.wantsKeys();
    }

    /** A hit, a filled miss, or null to read without the cache. */
    private Result readThroughCache(Request r, SqlAnalysis a) throws SQLException {
        Transaction t = tx;
        boolean inTransaction = t != null && t.begun();
        if (inTransaction && (t.writtenTables.contains(LockManager.ALL) || readsAny(a, t.writtenTables))) {
            return null; // its own uncommitted writes: never from (or into) the cache
        }
        ResultCache.Decision d = rm.cache.lookup(r.sql(), r.params(), r.maxRows(),
                () -> RequestManager.readTouches(a, r.params()), !inTransaction);
        if (d instanceof ResultCache.Hit hit) {
            answeredFromCache = true;
            return new Result.Cached(hit.metaData(), hit.rows());
        }
        if (d instanceof ResultCache.Wait wait) {
            ResultCache.Hit hit = wait.result().join();
            answeredFromCache = hit != null;
            return hit == null ? null : new Result.Cached(hit.metaData(), hit.rows());
        }
        if (d instanceof ResultCache.Miss miss) {
            return fill(r, a, miss.fill());
        }
        return null;
    }

    private static boolean readsAny(SqlAnalysis a, Set<String> tables) {
        for (String table : a.readTables()) {
            if (tables.contains(org.phalanx.requestmanager.routing.SchemaView.key(table))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs a cache miss on a backend that has applied every write queued on the read's tables
     * and stores its rows; a result over the row limit is returned as it streams, not stored.
     * Returns null (read without the cache) when no backend is caught up or the read failed.
     */
    private Result fill(Request r, SqlAnalysis a, ResultCache.Fill fill) throws SQLException {
        boolean settled = false;
        try {
            List<Backend> ready = new ArrayList<>();
            for (Backend b : caughtUp(rm.routing.read(a, rm.enabledBackends()).candidates())) {
                if (b.caughtUp(rm.readResources(a))) {
                    ready.add(b);
                }
            }
            if (ready.isEmpty()) {
                return null;
            }
            Backend chosen = rm.admission.admit(ready, r.queryTimeoutSeconds());
            if (chosen == null) {
                return null;
            }
            Result result = runRead(chosen, null, r);
            if (!(result instanceof Result.Rows rows)) {
                return result;
            }
            ResultSet rs = rows.resultSet();
            try {
                RowReader reader = RowReader.of(rs.getMetaData());
                int limit = rm.cache.maxEntryRows();
                List<Object[]> list = new ArrayList<>();
                while (list.size() <= limit && rs.next()) {
                    list.add(reader.read(rs));
                }
                if (list.size() > limit) {
                    rm.cache.abandon(fill, true);
                    settled = true;
                    return new Result.Rows(rs, rows, list);
                }
                ResultSetMetaData meta = RowReader.detach(rs.getMetaData());
                rows.close();
                rm.cache.store(fill, meta, list);
                settled = true;
                return new Result.Cached(meta, list);
            } catch (SQLException | RuntimeException e) {
                closeQuietly(rows);
                throw e;
            }
        } catch (SQLException e) {
            return null; // the usual path retries elsewhere and reports what must be reported
        } finally {
            if (!settled) {
                rm.cache.abandon(fill, false);
            }
        }
    }

    private Result readUncached(Request r, SqlAnalysis a) throws SQLException {
        Transaction t = tx;
        if (t != null && t.begun()) {
            throwIfDoomed(t);
            ReadRoute route = rm.routing.read(a, rm.enabledBackends());
            for (Backend b : route.candidates()) {
                if (t.branches.containsKey(b)) {
                    return readInTransaction(r, a, t);
                }
            }
            // the transaction has not touched the backends this read needs: read committed data there
        }
        return readAutoCommit(r, a);
    }

    /**
     * A read outside a begun transaction, on a pooled connection. A backend whose connection
     * fails is disabled and the read retried elsewhere, unseen by the client. Any other error
     * is checked on a second backend: if it fails there too the statement is at fault and the
     * client gets the error; if it succeeds the first backend has diverged and is disabled.
     */
    private Result readAutoCommit(Request r, SqlAnalysis a) throws SQLException {
        Set<Backend> tried = new HashSet<>();
        SQLException firstError = null;
        Backend firstFailed = null;
        while (true) {
            ReadRoute route = rm.routing.read(a, rm.enabledBackends());
            List<Backend> candidates = new ArrayList<>(route.candidates());
            candidates.removeAll(tried);
            if (candidates.isEmpty()) {
                throw firstError != null ? firstError : rm.noBackend();
            }
            Backend b = rm.admission.admit(freshest(caughtUp(candidates), a), r.queryTimeoutSeconds());
            if (b == null) {
                continue; // taken out of service while the read waited: route again
            }
            tried.add(b);
            try {
                Result result = runRead(b, null, r);
                if (firstFailed != null && route.equivalent()) {
                    firstFailed.disable("failed a read that backend " + b.name() + " answered: "
                            + firstError.getMessage());
                }
                return result;
            } catch (SQLException failure) {
                SQLException e = SqlStates.normalize(failure, b.dialect());
                rm.statistics.readRetry();
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

    /** A read inside a begun transaction: on one of its branches able to serve it, after its earlier writes there. */
    private Result readInTransaction(Request r, SqlAnalysis a, Transaction t) throws SQLException {
        while (true) {
            List<Backend> candidates = new ArrayList<>();
            for (Backend b : rm.routing.read(a, rm.enabledBackends()).candidates()) {
                if (t.branches.containsKey(b)) {
                    candidates.add(b);
                }
            }
            if (candidates.isEmpty()) {
                rollbackQuietly();
                throw rm.noBackend();
            }
            Backend b = rm.balancer.choose(caughtUp(candidates));
            b.readStarted(); // never held back: the transaction may hold locks others wait for
            try {
                return runRead(b, t.branches.get(b), r);
            } catch (SQLException failure) {
                SQLException e = SqlStates.normalize(failure, b.dialect());
                if (BackendErrors.isConnectionFailure(e)) {
                    rm.statistics.readRetry();
                    b.disable("connection failed during a read: " + e.getMessage());
                    closeQuietly(t.branches.remove(b));
                    continue;
                }
                if (b.dialect() == Engine.POSTGRESQL) {
                    // PostgreSQL aborts the whole transaction on an error, on that backend only:
                    // keep the branches alike by ending the transaction everywhere.
                    t.doomed = new SQLException("current transaction is aborted, commands ignored until end of"
                            + " transaction block", "25P02");
                }
                throw e;
            }
        }
    }

    /**
     * Among backends able to serve a read, those that have applied every write already queued on
     * its tables: under 'first' another session's write, a CREATE TABLE for instance, may still be
     * on its way to a slow backend. If none has, those that have applied every write already
     * acknowledged to a client (waiting for one if need be): a client that reads over one
     * connection what it wrote over another, as a controller using this one as a backend does,
     * then reads its writes.
     */
    private List<Backend> freshest(List<Backend> candidates, SqlAnalysis a) {
        Collection<String> resources = rm.readResources(a);
        while (true) {
            List<Backend> fresh = new ArrayList<>(candidates.size());
            List<Backend> acknowledged = new ArrayList<>(candidates.size());
            List<CompletableFuture<?>> waiting = new ArrayList<>();
            for (Backend b : candidates) {
                if (b.caughtUp(resources)) {
                    fresh.add(b);
                    continue;
                }
                CompletableFuture<?> notRun = b.acknowledgedButNotRun(resources);
                if (notRun == null) {
                    acknowledged.add(b);
                } else {
                    waiting.add(notRun);
                }
            }
            if (!fresh.isEmpty()) {
                return fresh;
            }
            if (!acknowledged.isEmpty()) {
                return acknowledged;
            }
            CompletableFuture.anyOf(waiting.toArray(new CompletableFuture[0])).handle((v, e) -> null).join();
        }
    }

    /** The candidates that have applied this session's earlier writes; waits if none has yet. */
    private List<Backend> caughtUp(List<Backend> candidates) {
        while (true) {
            List<Backend> ready = new ArrayList<>(candidates.size());
            List<CompletableFuture<?>> waiting = new ArrayList<>();
            for (Backend b : candidates) {
                CompletableFuture<?> tail = tails.get(b);
                if (tail == null || tail.isDone()) {
                    ready.add(b);
                } else {
                    waiting.add(tail);
                }
            }
            if (!ready.isEmpty()) {
                return ready;
            }
            CompletableFuture.anyOf(waiting.toArray(new CompletableFuture[0])).handle((v, e) -> null).join();
        }
    }

    /**
     * Runs a read on a branch connection, or on a pooled one when branch is null, already counted
     * in the backend's pending requests. The returned rows hold the statement (and the pooled
     * connection) until closed. The count ends once the backend has answered: drivers fetch the
     * rows with the answer, and sending them on to the client is the controller's work, not the
     * backend's (while a read counts, another waiting for room could not use the idle backend).
     * A read asking rows in batches ({@code fetchSize}) may go back to the backend for each: it
     * counts until closed.
     */
    private Result runRead(Backend b, Connection branch, Request r) throws SQLException {
        Connection c = null;
        ReadStatements.Statement s = null;
        long start = System.nanoTime();
        boolean timed = false;
        boolean rowsEndCount = false; // true once returned rows that end the count when closed
        try {
            c = branch != null ? branch : b.connectionFor(user);
            s = b.readStatements().acquire(c, b.rewrite(r.sql()), r);
            PreparedStatement ps = s.prepared();
            boolean rows = ps.execute();
            b.statistics().read(System.nanoTime() - start, false); // until the first rows are ready
            timed = true;
            if (rows) {
                ResultSet rs = rm.statements.results(ps.getResultSet(), b);
                ReadStatements.Statement statement = s;
                Connection pooled = branch == null ? c : null;
                boolean streamed = r.fetchSize() > 0;
                rowsEndCount = streamed; // otherwise the count ends below, now
                return new Result.Rows(rs, () -> {
                    try {
                        releaseAfter(b, statement, rs);
                        closeQuietly(pooled);
                    } finally {
                        if (streamed) {
                            b.readFinished();
                        }
                    }
                });
            }
            long count = ps.getUpdateCount();
            b.readStatements().release(s);
            if (branch == null) {
                closeQuietly(c);
            }
            return new Result.UpdateCount(count, null);
        } catch (SQLException | RuntimeException e) {
            if (!timed) {
                b.statistics().read(System.nanoTime() - start, true);
            }
            if (s != null) {
                ReadStatements.discard(s);
            }
            if (branch == null) {
                closeQuietly(c);
            }
            throw e;
        } finally {
            if (!rowsEndCount) {
                b.readFinished();
            }
        }
    }

    /** Closes a read's result and keeps its statement for the next read, unless closing failed. */
    private static void releaseAfter(Backend b, ReadStatements.Statement statement, ResultSet rs) {
        try {
            rs.close();
            b.readStatements().release(statement);
        } catch (SQLException | RuntimeException e) {
            LOG.debug("closing a read result failed: {}", e.getMessage());
            ReadStatements.discard(statement);
        }
    }

    // ---------------------------------------------------------------- batches, metadata

    @Override
    public synchronized long[] executeBatch(String sql, List<List<Object>> parameterSets, int timeout) throws SQLException {
        long[] counts = new long[parameterSets.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = batchElement(new Request(sql, parameterSets.get(i), Request.Expect.UPDATE_COUNT, null, 0, 0,
                    timeout), counts, i);
        }
        return counts;
    }

    @Override
    public synchronized long[] executeBatch(List<String> statements, int timeout) throws SQLException {
        long[] counts = new long[statements.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = batchElement(new Request(statements.get(i), List.of(), Request.Expect.UPDATE_COUNT, null, 0, 0,
                    timeout), counts, i);
        }
        return counts;
    }

    private long batchElement(Request r, long[] counts, int index) throws SQLException {
        try (Result result = execute(r)) {
            return result instanceof Result.UpdateCount u ? u.count() : java.sql.Statement.SUCCESS_NO_INFO;
        } catch (SQLException e) {
            throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(),
                    Arrays.copyOf(counts, index), e);
        }
    }

    @Override
    public synchronized Result.Rows metadata(String method, List<Object> args) throws SQLException {
        checkOpen();
        List<Backend> candidates = rm.enabledBackends();
        if (candidates.isEmpty()) {
            throw rm.noBackend();
        }
        Backend b = rm.balancer.choose(candidates);
        Connection c = b.connectionFor(user);
        try {
            ResultSet rs = ControllerTablesHidden.filter(MetadataCall.invoke(c.getMetaData(), method, args));
            return new Result.Rows(rs, () -> {
                closeQuietly(rs);
                closeQuietly(c);
            });
        } catch (SQLException | RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        rollbackQuietly();
        closed = true;
        rm.sessionClosed(this);
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("the session is closed", "08003");
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.debug("close failed: {}", e.getMessage());
            }
        }
    }
}
