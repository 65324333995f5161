package org.phalanx.requestmanager.write;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendTask;
import org.phalanx.requestmanager.exec.Closeables;
import org.phalanx.requestmanager.exec.ReplicatedWrite;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.recovery.AppliedPositions;
import org.phalanx.requestmanager.recovery.AppliedTable;
import org.phalanx.requestmanager.recovery.LogWriter;
import org.phalanx.requestmanager.scheduler.Access;

/** Transaction demarcation: BEGIN IMMEDIATE, and the end of a transaction (commit or rollback) on every branch. */
public final class TransactionControl {
    private static final Logger LOG = LogManager.getLogger(TransactionControl.class);

    private final Pipeline p;

    public TransactionControl(Pipeline p) {
        this.p = p;
    }

    /**
     * BEGIN IMMEDIATE: lock the whole database and join every backend now, so the reads that
     * follow see the latest committed state and nothing can change it before this transaction
     * writes (a safe read-then-write, as on SQLite itself).
     */
    public void beginImmediate(SessionState s) throws SQLException {
        Transaction t = s.currentTransaction(p.scheduler());
        Access all = Access.EVERYTHING;
        p.scheduler().acquire(t.id(), all);
        s.join(t, p.backends().enabled());
        t.lock(all);
        // a barrier on every backend: the branch is ready once earlier conflicting work has run there
        p.scheduler().order(position -> {
            for (Backend b : t.branches().keySet()) {
                s.tails().enqueue(b, all, () -> null);
            }
        });
    }

    /**
     * {@code SAVEPOINT}, {@code ROLLBACK TO SAVEPOINT} or {@code RELEASE SAVEPOINT} inside a
     * transaction: run on every branch in the transaction's order there, and logged with its writes
     * (a replay runs it in the same place). A savepoint first joins the transaction to every backend,
     * so one it writes later has the savepoint too. Rolling back to a savepoint keeps the
     * transaction's locks (as the engines keep their row locks) and lifts what a failed statement
     * doomed, PostgreSQL's way out of {@code 25P02}; a transaction doomed by a conflict stays doomed.
     */
    public void savepoint(SessionState s, String sql, boolean rollsBack) throws SQLException {
        Transaction t = s.currentTransaction(p.scheduler());
        SQLException doomed = t.doomed();
        boolean recoverable = doomed != null && SqlState.IN_FAILED_SQL_TRANSACTION.code().equals(doomed.getSQLState());
        if (!(rollsBack && recoverable)) {
            throwIfDoomed(s, t);
        }
        s.join(t, p.backends().enabled());
        Map<Backend, CompletableFuture<Long>> futures = new LinkedHashMap<>();
        long[] logPosition = new long[1];
        CompletableFuture<?>[] logged = new CompletableFuture<?>[1];
        p.scheduler().order(position -> {
            logPosition[0] = position;
            logged[0] = p.log().append(LogEntry.write(position, t.id(), s.user(), sql, java.util.List.of(),
                    names(t.branches().keySet())));
            for (Map.Entry<Backend, Connection> branch : t.branches().entrySet()) {
                Connection c = branch.getValue();
                futures.put(branch.getKey(), s.tails().enqueue(branch.getKey(), Access.NOTHING, () -> {
                    try (java.sql.Statement st = c.createStatement()) {
                        st.execute(sql);
                    }
                    return 0L;
                }));
            }
        });
        try {
            new ReplicatedWrite<>(futures, p.waitPolicy(), v -> 0, Divergence.ofWrite(t, b -> true)).await();
        } catch (SQLException e) {
            p.log().failed(logPosition[0], s.user());
            LogWriter.awaitDurable(logged[0]);
            throw e;
        }
        LogWriter.awaitDurable(logged[0]);
        if (rollsBack && recoverable) {
            t.doom(null);
        }
    }

    public void commit(SessionState s) throws SQLException {
        Transaction t = s.transaction();
        if (t == null) {
            s.endTransaction(); // a read-only transaction's snapshot, if it read
            s.transactionEnded(true);
            return;
        }
        boolean committed = false;
        try {
            SQLException doomed = t.beginEnding(); // a doom from now on no longer counts: the commit goes on
            if (doomed != null) {
                rollbackQuietly(s); // a commit that fails rolls back, whatever the engine
                throw doomed;
            }
            end(s, t, true);
            committed = true;
        } finally {
            s.transactionEnded(committed); // a failed commit rolled back
        }
        p.statistics().commit();
    }

    public void rollback(SessionState s) throws SQLException {
        Transaction t = s.transaction();
        if (t == null) {
            s.endTransaction(); // a read-only transaction's snapshot, if it read
            s.transactionEnded(false);
            return;
        }
        try {
            end(s, t, false);
        } finally {
            s.transactionEnded(false);
        }
        p.statistics().rollback();
    }

    /**
     * Every backend lost its connection while running a commit or an auto-commit write: it may have
     * run on some before, and the recovery log holds it, so a backend enabled later gets it unless its
     * own record shows it ran. The client is told it cannot know ({@code 08007}), as when one
     * database's connection breaks during a commit.
     */
    static SQLException outcomeUnknown(String what, SQLException cause) {
        return new SQLException("the " + what + "'s outcome is unknown: every backend lost its connection or left service"
                + " while running it (" + cause.getMessage() + "); with a recovery log it is applied to each backend"
                + " enabled again that lacks it. Check before running it again",
                SqlState.TRANSACTION_RESOLUTION_UNKNOWN.code(), cause);
    }

    /** Rolls back what is open, logging (not throwing) a failure: the caller reports its own error. */
    public void rollbackQuietly(SessionState s) {
        try {
            rollback(s);
        } catch (SQLException e) {
            LOG.warn("rollback failed: {}", e.getMessage());
        }
    }

    /**
     * A doomed transaction's statement fails with the reason. On PostgreSQL backends the transaction
     * then stays open and aborted, as there: every statement after gets {@code 25P02} until the
     * client ends it (its COMMIT rolls back) or rolls back to a savepoint. Rolled back at once, the
     * statements after ran in a new transaction that committed, and the client's commit succeeded
     * with the earlier writes gone (an outside tester's finding). Elsewhere it is rolled back at once,
     * as MariaDB rolls back a deadlock's victim and goes on in a new transaction.
     */
    public void throwIfDoomed(SessionState s, Transaction t) throws SQLException {
        SQLException reason = t.doomed();
        if (reason == null) {
            return;
        }
        if (!p.backends().allSpeak(Engine.POSTGRESQL)) {
            rollbackQuietly(s);
            throw reason;
        }
        if (t.doomTold()) {
            throw new SQLException("current transaction is aborted, commands ignored until end of transaction block ("
                    + reason.getMessage() + ")", SqlState.IN_FAILED_SQL_TRANSACTION.code());
        }
        t.doomTold(true);
        throw reason;
    }

    /** Queues the commit or rollback on every branch, releases the locks, waits per policy. */
    private void end(SessionState s, Transaction t, boolean commit) throws SQLException {
        if (commit && t.begun() && t.branches().keySet().stream().noneMatch(Backend::isEnabled)) {
            // its branches went with their backends, rolled back there: logged as the rollback it is
            // (a COMMIT in the log would be replayed onto them once enabled)
            SQLException lost = new SQLException("no backend it ran on is in service", SqlState.CONNECTION_FAILURE.code());
            t.lostEverywhere(lost);
            end(s, t, false);
            throw t.doomed();
        }
        s.endTransaction();
        if (!t.begun()) {
            p.scheduler().releaseAll(t.id());
            t.ended().complete(null);
            return;
        }
        Map<Backend, CompletableFuture<Void>> futures = new LinkedHashMap<>();
        long[] logPosition = new long[1];
        CompletableFuture<?>[] logged = new CompletableFuture<?>[1];
        ClientThreadCopy copy = new ClientThreadCopy(t.branches().keySet());
        try {
            p.scheduler().order(position -> {
                logPosition[0] = position;
                Set<String> joined = names(t.branches().keySet());
                // handed to the log first: a commit happens on a backend only once it is durable
                CompletableFuture<Void> durable = p.log().append(commit
                        ? LogEntry.commit(position, t.id(), s.user(), joined).withRequestId(s.requestIdForLog())
                        : LogEntry.rollback(position, t.id(), s.user(), joined));
                logged[0] = durable;
                for (Map.Entry<Backend, Connection> branch : t.branches().entrySet()) {
                    Backend b = branch.getKey();
                    Connection c = branch.getValue();
                    if (!b.isEnabled()) {
                        s.tails().afterLast(b, () -> abandon(c));
                        if (!commit) {
                            t.undoSchema(b);
                        }
                        continue;
                    }
                    BackendTask<Void> ended = copy.enqueue(s.tails(), b, t.access(), 0, () -> {
                        // its connection is aborted if the backend hangs: the thread may be the client's
                        try (var running = b.running().startOn(c, commit ? "a commit" : "a rollback")) {
                            if (commit && t.lostBranchOn(b)) {
                                throw new java.sql.SQLNonTransientConnectionException("the transaction's branch on backend "
                                        + b.name() + " lost its connection before its commit: nothing of it is there",
                                        SqlState.CONNECTION_FAILURE.code());
                            }
                            if (commit) {
                                commitBranch(b, c, position, durable);
                            } else {
                                c.rollback();
                                t.undoSchema(b);
                            }
                        }
                        return null;
                    });
                    // back to the pool once nothing uses it; a branch whose end failed or never ran
                    // (its backend left service meanwhile) is rolled back first, so it holds no locks there
                    ended.whenRan((v, e) -> {
                        if (e == null) {
                            Closeables.closeQuietly(c);
                        } else {
                            abandon(c);
                        }
                    });
                    futures.put(b, ended);
                }
                if (commit && !t.writtenTables().isEmpty()) {
                    p.cache().invalidate(t.cacheWrites());
                }
            });
        } finally {
            p.scheduler().releaseAll(t.id()); // queued everywhere: later conflicting work queues behind it
            CompletableFuture.allOf(futures.values().toArray(CompletableFuture[]::new))
                    .whenComplete((v, e) -> t.ended().complete(null));
            copy.run();
        }
        if (futures.isEmpty()) {
            if (commit) {
                throw p.backends().noBackend();
            }
            return;
        }
        try {
            new ReplicatedWrite<>(futures, p.waitPolicy(), v -> 0, Divergence.ofEnd(commit)).await();
        } catch (SQLException e) {
            p.log().failed(logPosition[0], s.user());
            LogWriter.awaitDurable(logged[0]);
            if (!commit && ReplicatedWrite.everyBackendLeft(e)) {
                return; // no branch answered, and a server rolls back the transaction of a session it lost
            }
            throw commit && ReplicatedWrite.everyBackendLeft(e) ? outcomeUnknown("commit", e) : e;
        }
        LogWriter.awaitDurable(logged[0]);
        if (commit) {
            acknowledged(futures, t.access());
        }
    }

    /**
     * A branch on a backend that left service: rolled back and closed, so its pooled connection
     * holds no locks (an open SQLite write transaction would refuse the restore that rebuilds it).
     */
    private static void abandon(Connection branch) {
        try {
            branch.rollback();
        } catch (SQLException | RuntimeException e) {
            // a dead connection: closing it is all there is to do
        }
        Closeables.closeQuietly(branch);
    }

    /**
     * The client is about to be answered: backends still running this must not serve reads of
     * what it wrote meanwhile (what it only read, it did not change).
     */
    static void acknowledged(Map<Backend, ? extends CompletableFuture<?>> futures, Access access) {
        futures.forEach((b, f) -> b.acknowledged(access.writes(), f));
    }

    /** With a recovery log, the branch records the commit's position in the same transaction. */
    private void commitBranch(Backend b, Connection c, long position, CompletableFuture<?> durable) throws SQLException {
        try {
            if (p.applied().recordsApplied(b)) {
                AppliedPositions.commit(c, AppliedTable.of(b), position, durable);
            } else {
                c.commit();
            }
        } catch (SQLException e) {
            Boolean committed = p.applied().committedAfterLostConnection(b, position, e);
            if (Boolean.TRUE.equals(committed)) {
                abandon(c); // it committed before the connection went, which goes back to no pool
                return;
            }
            p.applied().unitFailed(b, position);
            throw Boolean.FALSE.equals(committed) ? new CommitLostWithSession(b.name(), e.getMessage()) : e;
        }
    }

    static Set<String> names(java.util.Collection<Backend> backends) {
        Set<String> names = new LinkedHashSet<>();
        for (Backend b : backends) {
            names.add(b.name());
        }
        return names;
    }
}
