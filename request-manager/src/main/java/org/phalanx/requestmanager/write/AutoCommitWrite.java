package org.phalanx.requestmanager.write;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.phalanx.requestmanager.analysis.LastInsertId;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.LocalTransaction;
import org.phalanx.requestmanager.backend.QueryTimeouts;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.exec.StatementRunner;
import org.phalanx.requestmanager.exec.WriteOutcome;
import org.phalanx.requestmanager.recovery.AppliedPositions;
import org.phalanx.requestmanager.recovery.AppliedTable;
import org.phalanx.requestmanager.recovery.AppliedRecords;
import org.phalanx.requestmanager.recovery.LogWriter;

/**
 * An auto-commit write on one backend; lock contention there is waited out, since others may
 * have applied it. With a recovery log it runs as a short transaction that also records its
 * position on the backend (on another controller, in a table of its virtual database) and commits
 * once its log entry is durable; with an {@link Agreement}
 * it runs as a short transaction that commits only once the backends agree on its outcome.
 */
final class AutoCommitWrite {
    /** How many times a write whose pooled connection was found ended runs again (the pool may hold several such). */
    private static final int MAX_SESSIONS_ENDED = 3;

    private AutoCommitWrite() {
    }

    /** Told what the write did on a backend, before that backend commits it. */
    @FunctionalInterface
    interface Executed {
        void ran(WriteOutcome outcome) throws SQLException;
    }

    /**
     * @param agreement what the backends must agree on before committing, or null
     * @param executed  told the outcome before the commit (a group member keeps its count: a crash
     *                  after the commit must not lose it), or null
     */
    static WriteOutcome run(Backend b, String user, SessionSettings settings, List<String> statements, Request r,
                            LastInsertId lastInsertId, long position,
                            CompletableFuture<?> durable, AppliedRecords applied, long lockTimeoutMillis,
                            Agreement agreement, Executed executed) throws Exception {
        long deadline = System.currentTimeMillis() + lockTimeoutMillis;
        long pause = 5;
        int sessionsEnded = 0;
        while (true) {
            WriteOutcome[] ran = new WriteOutcome[1]; // what it did, should the commit's answer be lost
            // its connection is aborted if the backend hangs: the thread may be the client's own (WriteStage)
            try (Connection c = b.connectionFor(user, settings); var running = b.running().startOn(c, "a write")) {
                LocalTransaction.Work<WriteOutcome> work = () -> {
                    WriteOutcome outcome = StatementRunner.executeWrite(c, statements, r, lastInsertId);
                    if (agreement != null) {
                        agreement.commitIfAgreed(b, outcome);
                    }
                    if (executed != null) {
                        executed.ran(outcome);
                    }
                    ran[0] = outcome;
                    return outcome;
                };
                if (applied.recordsApplied(b)) {
                    return AppliedPositions.runUnit(c, AppliedTable.of(b), statements.get(0), position, durable, work);
                }
                if (agreement == null && (logged(durable) || AppliedPositions.runsOutsideTransactions(statements.get(0)))) {
                    return work.run();
                }
                // no record is kept, but nothing is committed that the log may still refuse
                return inTransaction(c, () -> {
                    WriteOutcome outcome = work.run();
                    LogWriter.awaitDurable(durable);
                    return outcome;
                });
            } catch (SQLException e) {
                Boolean committed = agreement == null ? settled(e, b, statements, position, applied) : null;
                if (Boolean.TRUE.equals(committed) && ran[0] != null) {
                    return ran[0]; // its connection went after the commit: the write is done
                }
                // (its count, told to executed, is told again: the same position's, replaced)
                if (Boolean.FALSE.equals(committed) && sessionsEnded < MAX_SESSIONS_ENDED) {
                    sessionsEnded++; // its pooled connection was killed (a DBA's pg_terminate_backend): again on a new one
                    b.renewPooledConnections();
                    continue;
                }
                if (e instanceof Agreement.Undone || !BackendErrors.isContention(e, b.dialect())
                        || QueryTimeouts.expired(e, r.queryTimeoutSeconds()) || System.currentTimeMillis() + pause > deadline) {
                    applied.unitFailed(b, position);
                    throw e;
                }
                Thread.sleep(pause);
                pause = Math.min(pause * 2, 200);
            }
        }
    }

    /**
     * Whether the write whose connection was lost committed ({@link
     * AppliedRecords#committedAfterLostConnection}), null when that cannot be told. One statement
     * only (of several run one by one, the first may have committed alone), and not one that runs
     * outside a transaction (its record comes after it).
     */
    private static Boolean settled(SQLException e, Backend b, List<String> statements, long position,
                                   AppliedRecords applied) {
        return statements.size() == 1 && !AppliedPositions.runsOutsideTransactions(statements.get(0))
                ? applied.committedAfterLostConnection(b, position, e) : null;
    }

    /** Whether the entry is already durable (always, without a recovery log). */
    private static boolean logged(CompletableFuture<?> durable) {
        return durable == null || durable.isDone() && !durable.isCompletedExceptionally();
    }

    private static WriteOutcome inTransaction(Connection c, LocalTransaction.Work<WriteOutcome> work) throws Exception {
        return LocalTransaction.run(c, () -> {
            WriteOutcome outcome = work.run();
            c.commit();
            return outcome;
        });
    }
}
