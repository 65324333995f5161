package org.phalanx.requestmanager.write;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransactionRollbackException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.ToLongFunction;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.analysis.LastInsertId;
import org.phalanx.requestmanager.analysis.MacroRewriter;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.analysis.SqlLexer;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.api.BatchOutcome;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.BackendDisabledException;
import org.phalanx.requestmanager.backend.BackendTask;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.cache.Touch;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.requestmanager.exec.ReplicatedWrite;
import org.phalanx.requestmanager.exec.ResultDescriptions;
import org.phalanx.requestmanager.exec.StatementRunner;
import org.phalanx.requestmanager.exec.WriteOutcome;
import org.phalanx.requestmanager.hetero.ControllerKeys;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.recovery.AppliedPositions;
import org.phalanx.requestmanager.recovery.LogWriter;
import org.phalanx.requestmanager.recovery.LoggedSettings;
import org.phalanx.requestmanager.recovery.LoggedValues;
import org.phalanx.requestmanager.recovery.RememberedKeys;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.scheduler.Scheduler;
import org.phalanx.requestmanager.scheduler.LockManager;

/**
 * The write path: a write (DML or DDL) is locked by the scheduler, given its place in the total
 * order, logged, queued on every backend that holds its tables, invalidated in the cache, and
 * answered per the wait policy once durable. Inside a transaction it joins the backends lazily.
 */
public final class WriteStage {
    private static final Logger LOG = LogManager.getLogger(WriteStage.class);
    private final Pipeline p;
    private final ChosenKeys keys;
    private final TransactionControl transactions;
    private final RowLocking rows;
    private final DefaultValues defaults = new DefaultValues();
    private final BatchWrite batches;

    /**
     * Agreed writes hold a pooled connection on every backend while they wait for each other: no
     * more in flight than the smallest pool has connections, or they could take every connection
     * of two backends and wait on each other until the pools time out.
     */
    private final Semaphore agreementSlots;

    public WriteStage(Pipeline p, ChosenKeys keys, TransactionControl transactions) {
        this.p = p;
        this.keys = keys;
        this.transactions = transactions;
        this.rows = new RowLocking(p.scheduler().locksRows(), p.descriptions());
        this.batches = new BatchWrite(p, keys, transactions, rows, defaults);
        this.agreementSlots = new Semaphore(p.backends().all().stream().mapToInt(b -> b.config().poolSize())
                .min().orElse(1));
    }

    /**
     * A prepared statement's batch as one write where it may be ({@link BatchWrite}): the
     * elements' update counts (and keys), or null when the caller must run it element by element.
     */
    public BatchOutcome writeBatch(String sql, List<List<Object>> parameterSets, List<String> keyColumns, int timeout,
                                   SqlAnalysis a, SessionState s)
            throws SQLException {
        return batches.write(sql, parameterSets, keyColumns, timeout, a, s);
    }

    /** A statement's batch of SQL texts as one write ({@link BatchWrite}), or null: then element by element. */
    public BatchOutcome writeTexts(List<String> statements, int timeout, SessionState s) throws SQLException {
        return batches.writeTexts(statements, timeout, s);
    }

    /**
     * A locking read with NOWAIT found its rows held by another transaction: the engine's own error
     * (PostgreSQL's 55P03, which also aborts the transaction; MariaDB's 1205, which ends only the
     * statement), not the 40001 of a wait that timed out.
     */
    private SQLException lockNotAvailable(Transaction t) {
        if (p.backends().allSpeak(Engine.MARIADB)) {
            return new SQLException("Lock wait timeout exceeded; try restarting transaction (NOWAIT: another"
                    + " transaction holds the rows)", "HY000", 1205);
        }
        SQLException e = new SQLException("could not obtain lock on row: another transaction holds it (NOWAIT)",
                SqlState.LOCK_NOT_AVAILABLE.code());
        if (t != null) {
            t.abortAfter(e);
        }
        return e;
    }

    /**
     * Takes the write's locks; a refusal (lock timeout, deadlock) is logged with the statement, for
     * the operator. Its query timeout passing while it waits fails the statement, which on
     * PostgreSQL aborts the transaction, as there.
     */
    private void acquire(long txId, Access access, Request r, Transaction t, SessionState s) throws SQLException {
        try {
            p.scheduler().acquire(txId, access, r.queryTimeoutSeconds(), SessionLockTimeout.millis(s.settings()));
        } catch (Scheduler.SessionLockTimeoutExpired e) {
            if (p.backends().allSpeak(Engine.MARIADB)) { // ends the statement only, as InnoDB's own
                throw new SQLException("Lock wait timeout exceeded; try restarting transaction", "HY000", 1205, e);
            }
            if (t != null) {
                t.abortAfter(e); // PostgreSQL's 55P03 aborts the transaction
            }
            throw e;
        } catch (SQLTransactionRollbackException e) {
            String sql = r.sql();
            String text = sql.length() > 300 ? sql.substring(0, 300) + "..." : sql;
            LOG.info("{}: {}", e.getMessage(), text.replace('\n', ' '));
            throw e;
        } catch (SQLException e) {
            if (t != null && p.backends().allSpeak(Engine.POSTGRESQL)) {
                t.abortAfter(e);
            }
            throw e;
        }
    }

    /**
     * {@code UPDATE t SET n = nextval('s')} of the whole table: each replica would hand the numbers out
     * in the order of its own scan (they differed row by row). With a WHERE clause it may be one row,
     * and is left alone (several rows matching it are not detected).
     */
    private void refuseNumberingInScanOrder(String sql) throws SQLException {
        if (SqlLexer.mayCall(sql, NEXTVAL) && SqlLexer.firstWord(sql).equals("update")
                && !SqlLexer.containsWord(sql, "where") && (p.backends().all().size() > 1 || p.log() != LogWriter.NONE)) {
            throw new SQLFeatureNotSupportedException("nextval() in an UPDATE of every row: each replica would number"
                    + " the rows in the order of its own scan; number them from an ordered query, or one row at a time",
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
    }

    private static final Set<String> NEXTVAL = Set.of("nextval");

    /** Schema changes not yet run on every backend (DDL of any table, and the tables of the others). */
    public int schemaChangesSettling() {
        return rows.schemaChangesSettling();
    }

    public Result write(Request r, SqlAnalysis a, SessionState s) throws SQLException {
        refuseIfTooLarge(r, p.backends().enabled());
        Access tableLevel = p.scheduler().lockResources(a);
        long schemaSeen = rows.schemaChanges();
        Access refined = rows.refine(tableLevel, a, r.sql(), r.params(), p.backends().enabled(), s.user());
        refuseNumberingInScanOrder(r.sql());
        boolean implicit = s.autoCommit();
        SessionSettings settings = s.settings(); // as they are now: the write may run after the next SET
        Transaction t = implicit ? null : s.currentTransaction(p.scheduler());
        long txId = implicit ? p.scheduler().nextTransactionId() : t.id();
        if (t != null) {
            transactions.throwIfDoomed(s, t);
        }
        try {
            if (SqlAnalyzer.asksNoWait(r.sql())) {
                if (!p.scheduler().tryAcquire(txId, refined)) {
                    throw lockNotAvailable(t);
                }
            } else {
                acquire(txId, refined, r, t, s);
            }
            // a schema change came between the row-level decision and the lock: the table may no longer qualify
            Access access = refined != tableLevel && rows.schemaChangedSince(schemaSeen, refined)
                    ? rows.afterSchemaChange(tableLevel, refined, p.backends().enabled(), s.user()) : refined;
            if (access != refined) {
                if (implicit) {
                    // it holds nothing else: it waits for the wider locks holding none (two such writes, each
                    // holding its rows and waiting for the table, deadlocked: 40001 beside statements the
                    // parser could not read, which count as schema changes)
                    p.scheduler().releaseAll(txId);
                }
                p.scheduler().acquire(txId, access);
            } else if (RowLocking.isRowLevel(access)) {
                p.statistics().rowLevelWrite();
            }
            List<Backend> targets = p.routing().writeTargets(a, p.backends().enabled());
            if (!implicit) {
                targets = joined(s, t, targets, access);
            }
            if (targets.isEmpty()) {
                throw p.backends().noBackend();
            }
            MacroRewriter macros = SessionTimeZone.of(p.macros(), settings, p.backends().dialects());
            String sql = defaults.complete(a.hasMacros() ? macros.rewrite(r.sql(), p.backends().dialects()) : r.sql(), a, s, t,
                    targets, rows.schemaChanges(), macros);
            List<Backend> chosen = targets;
            ChosenKeys.Plan keyPlan = keys.plan(sql, r.params(), a, chosen, s, access);
            boolean ddl = a.kind() == StatementKind.DDL;
            Map<Backend, CompletableFuture<WriteOutcome>> futures = new LinkedHashMap<>();
            long[] logPosition = new long[1];
            long[][] chosenKeys = new long[1][];
            CompletableFuture<?>[] logged = new CompletableFuture<?>[1];
            List<Runnable> schemaUndo = new ArrayList<>();
            // engines differ: their outcomes are compared before anyone commits or is answered
            boolean mixed = chosen.stream().map(Backend::dialect).distinct().count() > 1;
            ReplicatedWrite.Disagreement disagreement = Divergence.ofWrite(t, b -> mixed && undoable(b, sql, ddl));
            // what engines report for DDL varies (SQLite, the last DML's count): only success counts
            ToLongFunction<WriteOutcome> count = ddl ? o -> 0 : WriteOutcome::count;
            Agreement agreement = null;
            if (mixed && implicit) {
                takeAgreementSlot();
                agreement = new Agreement(chosen, count, disagreement);
            }
            Agreement agreed = agreement;
            // engines that must agree first run every copy on their own threads, side by side
            ClientThreadCopy copy = agreed == null ? new ClientThreadCopy(chosen) : null;
            // the count (and keys) kept for the client's retry as each backend runs it, before it commits; with
            // engines to agree, or keys the controller chose, only once answered (below)
            AutoCommitWrite.Executed counting = agreed != null || keyPlan != null ? null : o -> p.log().counted(
                    logPosition[0], count.applyAsLong(o), r.wantsKeys() ? RememberedKeys.of(o.keys()) : null);
            try {
                p.scheduler().order(position -> {
                    logPosition[0] = position;
                    String statement = sql;
                    Request sent = r;
                    if (keyPlan != null) {
                        chosenKeys[0] = keys.next(keyPlan, keyPlan.insert().rows());
                        ChosenKeys.Keyed keyed = keyPlan.withKeys(chosenKeys[0], r);
                        statement = keyed.sql();
                        sent = keyed.request();
                    }
                    Request run = sent;
                    // handed to the log first: an auto-commit write commits on a backend only once it is durable
                    List<Object> values = LoggedValues.toLog(sent.params());
                    String text = LoggedSettings.toLog(settings, statement);
                    CompletableFuture<Void> durable = p.log().append(implicit
                            ? LogEntry.statement(position, s.user(), text, values, TransactionControl.names(chosen))
                                    .withRequestId(s.requestIdForLog())
                            : LogEntry.write(position, t.id(), s.user(), text, values, TransactionControl.names(chosen)));
                    logged[0] = durable;
                    LastInsertId lastInsertId = p.backends().lastInsertId();
                    for (Backend b : chosen) {
                        List<String> statements = p.statements().forBackend(b, statement, ddl);
                        Callable<WriteOutcome> work = implicit
                                ? () -> AutoCommitWrite.run(b, s.user(), settings, statements, run, lastInsertId, position, durable, p.applied(),
                                        p.scheduler().lockTimeoutMillis(), agreed, counting)
                                : () -> onBranch(t, b, statements, run, lastInsertId,
                                        p.descriptions().before(b, statements.get(statements.size() - 1), run, settings));
                        // held in memory while queued: Java text takes two bytes a character
                        long bytes = 2 * run.approximateBytes();
                        BackendTask<WriteOutcome> f = copy != null ? copy.enqueue(s.tails(), b, access, bytes, work)
                                : s.tails().enqueue(b, access, bytes, work);
                        if (agreed != null) {
                            f.whenComplete((v, e) -> {
                                if (e != null) {
                                    agreed.ended(b, e);
                                }
                            });
                        }
                        futures.put(b, f);
                    }
                    if (a.ddl() != null) {
                        schemaUndo.addAll(followSchema(chosen, a, t));
                        keys.forget(a);
                    }
                    if (ddl || a.allTables()) {
                        // a unique index, a foreign key or a trigger may come: settled once it has run (committed) everywhere
                        rows.schemaChanging(tableLevel, implicit ? futures.values() : List.of(t.ended()));
                    }
                    if (implicit) {
                        p.cache().invalidate(Touch.ofWrite(a, r.params()));
                    }
                });
            } finally {
                if (copy != null) {
                    copy.run(); // now, whatever happened: later conflicting work waits for it
                }
                if (agreed != null) {
                    for (Backend b : chosen) {
                        if (!futures.containsKey(b)) {
                            agreed.ended(b, new BackendDisabledException(b.name())); // never sent: no vote
                        }
                    }
                    releaseWhenFinished(futures.values());
                }
            }
            if (!implicit) {
                noteWrites(p, t, a, r.params());
            }
            if (implicit) {
                p.scheduler().releaseAll(txId); // queued everywhere: later conflicting writes queue behind it
            }
            WriteOutcome outcome;
            try {
                outcome = await(futures, mixed, agreement, count, disagreement);
            } catch (SQLException e) {
                keys.ran(sql, a, ChosenKeys.reachesOtherTables(a, tableLevel, access), keyPlan);
                for (int i = schemaUndo.size() - 1; i >= 0; i--) {
                    schemaUndo.get(i).run(); // the DDL failed everywhere: the schema view goes back
                }
                boolean lost = ReplicatedWrite.everyBackendLeft(e);
                if (t != null && lost) {
                    t.lostEverywhere(e); // its branches died with their connections
                } else if (t != null && Divergence.spansPostgresAndOthers(t)) {
                    // PostgreSQL aborted its branch, the other engines did not: end it everywhere
                    t.abortAfter(e);
                }
                // failed everywhere, or ran nowhere that answered: a replay may see it fail too
                p.log().failed(logPosition[0], s.user());
                LogWriter.awaitDurable(logged[0]);
                throw !lost ? e : t == null ? TransactionControl.outcomeUnknown("write", e) : t.doomed();
            }
            LogWriter.awaitDurable(logged[0]); // durable in the recovery log before the reply
            keys.ran(sql, a, ChosenKeys.reachesOtherTables(a, tableLevel, access), keyPlan);
            if (keyPlan != null && keyPlan.sequence() != null) {
                s.sequenceValues().chosen(keyPlan.sequence(), chosenKeys[0]);
            }
            if (outcome.lastInsertId() != null) {
                LastInsertId function = p.backends().lastInsertId();
                long reported = keyPlan != null && chosenKeys[0].length > 0
                        ? function.ofChosenKeys(chosenKeys[0]) : outcome.lastInsertId();
                s.lastInsertId(function.after(sql, outcome.count(), reported, s.lastInsertId()));
            }
            Result result = keyPlan != null && r.wantsKeys()
                    ? new Result.UpdateCount(outcome.count(), ControllerKeys.keysResult(keyPlan.column(), keyPlan.columnType(), chosenKeys[0]))
                    : outcome.toResult();
            if (implicit) {
                TransactionControl.acknowledged(futures, access); // a transaction's writes become visible at its commit
                if (counting == null) { // otherwise each backend already told the log as it ran the write
                    p.log().counted(logPosition[0], count.applyAsLong(outcome), r.wantsKeys()
                            && result instanceof Result.UpdateCount u ? RememberedKeys.of(u.generatedKeys()) : null);
                }
            }
            return result;
        } catch (SQLTransactionRollbackException e) {
            if (t != null) {
                transactions.rollbackQuietly(s);
            }
            throw e;
        } finally {
            if (implicit) {
                p.scheduler().releaseAll(txId);
            }
        }
    }

    /** A write on a transaction's branch; if the backend hangs its connection is aborted (see {@link ClientThreadCopy}). */
    private static WriteOutcome onBranch(Transaction t, Backend b, List<String> statements, Request r,
                                         LastInsertId lastInsertId, ResultDescriptions.Describing describing)
            throws SQLException {
        java.sql.Connection branch = t.branches().get(b);
        try (var running = b.running().startOn(branch, "a write")) {
            return StatementRunner.executeWrite(branch, statements, r, lastInsertId, describing);
        } catch (SQLException e) {
            if (BackendErrors.isConnectionFailure(e)) {
                t.branchLost(b); // before its commit there can run: nothing of the transaction is there to commit
            }
            throw e;
        }
    }

    /**
     * Waits for the write's result as the wait policy says. On a mixed-engine virtual database the
     * backends' outcomes are compared first: an auto-commit write then waits (per policy) only for
     * the commits of the backends that reached the agreed outcome; a write inside a transaction
     * waits for every backend.
     */
    private WriteOutcome await(Map<Backend, CompletableFuture<WriteOutcome>> futures, boolean mixed,
                               Agreement agreement, ToLongFunction<WriteOutcome> count,
                               ReplicatedWrite.Disagreement disagreement) throws SQLException {
        if (agreement == null) {
            return new ReplicatedWrite<>(futures, mixed ? WaitPolicy.ALL : p.waitPolicy(), count, disagreement).await();
        }
        ReplicatedWrite.Verdict<WriteOutcome> agreed = agreement.await();
        Map<Backend, CompletableFuture<WriteOutcome>> commits = new LinkedHashMap<>(futures);
        commits.keySet().retainAll(agreed.agreeing());
        return new ReplicatedWrite<>(commits, p.waitPolicy(), count, disagreement).await();
    }

    private void takeAgreementSlot() throws SQLException {
        try {
            agreementSlots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting to write", SqlState.OPERATION_CANCELED.code(), e);
        }
    }

    private void releaseWhenFinished(java.util.Collection<CompletableFuture<WriteOutcome>> running) {
        CompletableFuture.allOf(running.toArray(new CompletableFuture[0])).handle((v, e) -> {
            agreementSlots.release();
            return null;
        });
    }

    /**
     * A statement larger than some backend accepts is refused up front, as that backend alone
     * would refuse it: the virtual database stores only what every replica can (sent anyway,
     * MariaDB would close the connection, and its replica could never be caught up).
     */
    /**
     * A transaction's write: the transaction joins the write's targets and holds its access; the
     * targets it has a branch on, enabled (a backend may have left service meanwhile).
     */
    static List<Backend> joined(SessionState s, Transaction t, List<Backend> targets, Access access) {
        s.join(t, targets);
        t.lock(access);
        List<Backend> joined = new ArrayList<>(targets);
        joined.removeIf(b -> !t.branches().containsKey(b) || !b.isEnabled());
        return joined;
    }

    static void refuseIfTooLarge(Request r, List<Backend> backends) throws SQLException {
        long size = -1;
        for (Backend b : backends) {
            long max = b.maxStatementBytes();
            if (max == Long.MAX_VALUE) {
                continue;
            }
            size = Math.max(size, r.bytesUpTo(max));
            if (size > max) {
                throw new SQLException("the statement and its values take about " + size + " bytes, more than backend "
                        + b.name() + " accepts (" + max + " bytes, its max_allowed_packet)",
                        SqlState.PROGRAM_LIMIT_EXCEEDED.code());
            }
        }
    }

    /**
     * Whether a backend's rollback takes back what the statement did there: not for statements
     * that run outside transactions, nor for DDL on MariaDB, which commits on its own.
     */
    private static boolean undoable(Backend b, String sql, boolean ddl) {
        return !AppliedPositions.runsOutsideTransactions(sql) && !(ddl && b.dialect() == Engine.MARIADB);
    }

    /** Remembers what a transaction's write may change: the cache learns it when the transaction commits. */
    static void noteWrites(Pipeline p, Transaction t, SqlAnalysis a, List<Object> params) {
        if (a.allTables() || a.kind() == StatementKind.DDL) {
            t.writtenTables().add(LockManager.ALL);
        } else {
            for (String w : a.writtenTables()) {
                t.writtenTables().add(SchemaView.key(w));
            }
        }
        if (p.cache().caches() && t.cacheWrites() != null) {
            t.mayChange(Touch.ofWrite(a, params));
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
            Runnable undo = p.routing().applied(b, a);
            if (undo != null) {
                undos.add(undo);
                if (t != null) {
                    t.undoLater(b, undo);
                }
            }
        }
        return undos;
    }
}
