package org.phalanx.requestmanager.recovery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.CloseableIterator;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.api.RequestId;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.ParameterBinder;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.exec.StatementRunner;

/**
 * Applies the recovery log to one backend, as the live system applied it: auto-commit
 * statements at once, each transaction's writes on a connection of its own, committed or rolled
 * back where the log says; like live work, each statement and commit records its position on
 * the backend in the same transaction ({@link AppliedPositions}). Conflicting transactions never overlap in the log (the scheduler's
 * locks saw to that: transactions that overlap share only tables they all read, which engines
 * lock shared too), so applying it in order never blocks, and each statement sees the same
 * committed writes of the tables it reads as it did live.
 *
 * <p>An engine that locks the whole database for a writing transaction (SQLite) cannot hold two
 * open at once, yet a log written over row-locking backends (a group's primary over PostgreSQL,
 * docs/distribution.md) interleaves transactions that wrote different rows. On such a backend a
 * transaction's writes are therefore kept until its COMMIT and applied then, in one backend
 * transaction: in commit order, an order the row-locking engines' own locks agree with.
 *
 * <p>A statement that fails during replay is acceptable only if the log later says it failed on
 * every backend too (a FAILED entry); otherwise the backend has diverged and replay fails.
 */
public final class Replayer implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(Replayer.class);

    private final Backend backend;
    private final RecoveryLog log;
    private final Predicate<LogEntry> applies;
    private final boolean recordApplied;
    private final Map<Long, Branch> transactions = new HashMap<>();
    /** On a backend that locks the whole database: each open transaction's writes, applied at its COMMIT. */
    private final Map<Long, List<LogEntry>> heldUntilCommit = new HashMap<>();
    private final boolean applyAtCommit;
    /** Position of a statement that failed here, to its error, until a FAILED entry confirms it. */
    private final Map<Long, SQLException> unconfirmed = new LinkedHashMap<>();
    private long position;
    private long applied;

    /**
     * @param applies       which statements and writes this backend must apply (partial replication
     *                      skips tables it does not hold; crash recovery skips what it already has)
     * @param recordApplied record each applied unit's position on the backend ({@link AppliedPositions})
     */
    public Replayer(Backend backend, RecoveryLog log, long after, Predicate<LogEntry> applies, boolean recordApplied) {
        this.backend = backend;
        this.recordApplied = recordApplied;
        this.log = log;
        this.position = after;
        this.applies = applies;
        this.applyAtCommit = backend.engine().locksWholeDatabase();
    }

    /** The last position replayed. */
    public long position() {
        return position;
    }

    /** Entries applied so far. */
    public long applied() {
        return applied;
    }

    /** Applies every entry after the current position up to and including {@code until}. */
    public void replayUntil(long until) throws SQLException {
        try (CloseableIterator<LogEntry> entries = log.read(position)) {
            while (entries.hasNext()) {
                LogEntry e = entries.next();
                if (e.position() > until) {
                    break;
                }
                apply(e);
                position = e.position();
            }
        } catch (SQLException e) {
            throw e;
        } catch (Exception e) {
            throw new SQLException("replay onto backend " + backend.name() + " failed at position " + position
                    + ": " + e.getMessage(), SqlState.IO_ERROR.code(), e);
        }
    }

    private void apply(LogEntry e) throws SQLException {
        switch (e.kind()) {
            case FAILED:
                unconfirmed.remove(e.transactionId());
                return;
            case COMMIT:
            case ROLLBACK: {
                List<LogEntry> held = heldUntilCommit.remove(e.transactionId());
                if (held != null && e.kind() == LogEntry.Kind.COMMIT) {
                    for (LogEntry write : held) {
                        applyWrite(write);
                    }
                }
                Branch branch = transactions.remove(e.transactionId());
                if (branch != null) {
                    try (Connection c = branch.connection) {
                        if (e.kind() == LogEntry.Kind.COMMIT) {
                            if (recordApplied) {
                                AppliedPositions.commit(c, AppliedTable.of(backend), e.position(), null);
                            } else {
                                c.commit();
                            }
                        } else {
                            c.rollback();
                        }
                        branch.settingsBackToFirst(backend);
                    } catch (SQLException failure) {
                        failedHere(e, failure);
                    }
                }
                return;
            }
            default:
                break;
        }
        if (!applies.test(e)) {
            return;
        }
        if (applyAtCommit && e.kind() == LogEntry.Kind.WRITE) {
            heldUntilCommit.computeIfAbsent(e.transactionId(), k -> new ArrayList<>()).add(e);
            return;
        }
        applyWrite(e);
    }

    /** Runs an auto-commit statement on its own, or a transaction's write on the transaction's branch. */
    private void applyWrite(LogEntry e) throws SQLException {
        LoggedSettings.Logged logged = LoggedSettings.fromLog(e.sql());
        boolean own = e.kind() == LogEntry.Kind.STATEMENT;
        Connection c;
        try {
            c = own
                    ? backend.connectionFor(e.login(), logged.settings()) // the session's settings, reset on close
                    : branchFor(e, logged).connection;
        } catch (SQLException failure) {
            throw BackendErrors.isConnectionFailure(failure) ? lost(e, failure) : failure;
        }
        try {
            Connection on = c;
            if (own && recordApplied) {
                AppliedPositions.runUnit(c, AppliedTable.of(backend), logged.sql(), e.position(), null,
                        () -> execute(on, logged.sql(), e));
            } else {
                execute(on, logged.sql(), e);
            }
            applied++;
        } catch (SQLException failure) {
            failedHere(e, failure);
        } catch (Exception failure) {
            unconfirmed.put(e.position(), new SQLException(failure.toString(),
                    SqlState.INTERNAL_ERROR.code(), failure));
        } finally {
            if (own) {
                c.close();
            }
        }
    }

    /** Runs the entry as this backend must (translated DDL, rewriting rules: {@link Backend#statementsFor}). */
    private Void execute(Connection c, String text, LogEntry e) throws SQLException {
        List<String> statements = backend.statementsFor(text);
        for (String sql : statements.subList(0, statements.size() - 1)) {
            try (java.sql.Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }
        // the keys its client asked for, as the primary's execution asked: what the client's retry is answered
        // (an auto-commit statement, or an element of a batch run as one transaction: a write with the id)
        RequestId id = RequestId.parse(e.requestId());
        List<String> keyColumns = id == null ? null : id.keyColumns();
        try (PreparedStatement ps = StatementRunner.prepareWithKeys(c, statements.get(statements.size() - 1), keyColumns)) {
            ParameterBinder.bindAll(ps, LoggedValues.fromLog(e.params()));
            ps.execute();
            if (e.kind() == LogEntry.Kind.STATEMENT || id != null) {
                log.counted(e.position(), Math.max(ps.getUpdateCount(), 0), keyColumns == null ? null : keys(ps));
            }
        }
        return null;
    }

    private static org.phalanx.recoverylog.GeneratedKeys keys(PreparedStatement ps) throws SQLException {
        try (java.sql.ResultSet rs = ps.getGeneratedKeys()) {
            return rs == null ? null : RememberedKeys.of(StatementRunner.copy(rs));
        }
    }

    /**
     * A replayed transaction's connection: taken with the session settings of its first write
     * (reset when it is closed), switched when a later write ran under others.
     */
    private static final class Branch {
        final Connection connection;
        final SessionSettings first;
        SessionSettings current;

        Branch(Connection connection, SessionSettings first) {
            this.connection = connection;
            this.first = first;
            this.current = first;
        }

        void settings(SessionSettings next, Backend b) throws SQLException {
            if (!next.equals(current)) {
                current.switchTo(next, connection, b.engine());
                current = next;
            }
        }

        /** Once ended: the first write's settings again, which closing the connection resets. */
        void settingsBackToFirst(Backend b) throws SQLException {
            if (!current.equals(first)) {
                connection.setAutoCommit(true);
                current.switchTo(first, connection, b.engine());
            }
        }
    }

    /** The transaction's branch on this backend, opened at its first write. */
    private Branch branchFor(LogEntry e, LoggedSettings.Logged logged) throws SQLException {
        Branch branch = transactions.get(e.transactionId());
        if (branch == null) {
            branch = new Branch(backend.connectionFor(e.login(), logged.settings()), logged.settings());
            branch.connection.setAutoCommit(false);
            transactions.put(e.transactionId(), branch);
        } else {
            branch.settings(logged.settings(), backend); // the session set a parameter inside the transaction
        }
        return branch;
    }

    /**
     * A statement or commit that failed on this backend: the statement's own failure waits for the
     * log to say it failed everywhere too; a lost connection ends the replay at once (the backend's
     * record says what it holds, so enabling it again resumes there), instead of being taken, at
     * the end, for a divergence.
     */
    private void failedHere(LogEntry e, SQLException failure) throws SQLException {
        if (BackendErrors.isConnectionFailure(failure)) {
            throw lost(e, failure);
        }
        unconfirmed.put(e.position(), failure);
    }

    private SQLException lost(LogEntry e, SQLException failure) {
        return new SQLException("backend " + backend.name() + " lost its connection during replay at log position "
                + e.position() + " (enable it again to resume): " + failure.getMessage(),
                SqlState.CONNECTION_FAILURE.code(), failure);
    }

    /** Positions whose statement or commit failed here and that no FAILED entry has confirmed yet, to their errors. */
    public Map<Long, SQLException> unconfirmedFailures() {
        return Map.copyOf(unconfirmed);
    }

    /** Accepts a failure at that position as agreed (it fails on every backend, as a FAILED entry would say). */
    public void confirmFailed(long failedPosition) {
        unconfirmed.remove(failedPosition);
    }

    /**
     * Ends replay: transactions the log never ended failed to commit anywhere, so they are rolled
     * back. Throws if a statement failed here that did not fail on the other backends.
     */
    public void finish() throws SQLException {
        heldUntilCommit.clear();
        for (Branch branch : transactions.values()) {
            try (Connection c = branch.connection) {
                c.rollback();
            }
        }
        transactions.clear();
        if (!unconfirmed.isEmpty()) {
            Map.Entry<Long, SQLException> first = unconfirmed.entrySet().iterator().next();
            throw new SQLException("backend " + backend.name() + " diverged during replay: the write at log position "
                    + first.getKey() + " failed here but not elsewhere: " + first.getValue().getMessage(),
                    SqlState.IO_ERROR.code(),
                    first.getValue());
        }
        LOG.debug("backend {} replayed {} log entries up to position {}", backend.name(), applied, position);
    }

    @Override
    public void close() {
        heldUntilCommit.clear();
        for (Branch branch : transactions.values()) {
            try {
                branch.connection.close();
            } catch (SQLException ignored) {
                // the pool rolls back what is left
            }
        }
        transactions.clear();
    }
}
