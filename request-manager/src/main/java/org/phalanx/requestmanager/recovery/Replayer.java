package org.phalanx.requestmanager.recovery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.CloseableIterator;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.ParameterBinder;

/**
 * Applies the recovery log to one backend, as the live system applied it: auto-commit
 * statements at once, each transaction's writes on a connection of its own, committed or rolled
 * back where the log says. Conflicting transactions never overlap in the log (the scheduler's
 * locks saw to that), so applying it in order never blocks.
 *
 * <p>A statement that fails during replay is acceptable only if the log later says it failed on
 * every backend too (a FAILED entry); otherwise the backend has diverged and replay fails.
 */
public final class Replayer implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(Replayer.class);

    private final Backend backend;
    private final RecoveryLog log;
    private final Predicate<LogEntry> applies;
    private final Map<Long, Connection> transactions = new HashMap<>();
    /** Position of a statement that failed here, to its error, until a FAILED entry confirms it. */
    private final Map<Long, SQLException> unconfirmed = new LinkedHashMap<>();
    private long position;
    private long applied;

    /** @param applies which entries this backend must apply (partial replication skips tables it does not hold) */
    public Replayer(Backend backend, RecoveryLog log, long after, Predicate<LogEntry> applies) {
        this.backend = backend;
        this.log = log;
        this.position = after;
        this.applies = applies;
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
                    + ": " + e.getMessage(), "58030", e);
        }
    }

    private void apply(LogEntry e) throws SQLException {
        switch (e.kind()) {
            case FAILED:
                unconfirmed.remove(e.transactionId());
                return;
            case COMMIT:
            case ROLLBACK: {
                Connection c = transactions.remove(e.transactionId());
                if (c != null) {
                    try (c) {
                        if (e.kind() == LogEntry.Kind.COMMIT) {
                            c.commit();
                        } else {
                            c.rollback();
                        }
                    } catch (SQLException failure) {
                        unconfirmed.put(e.position(), failure);
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
        Connection c;
        boolean own = e.kind() == LogEntry.Kind.STATEMENT;
        if (own) {
            c = backend.connectionFor(e.login());
        } else {
            c = transactions.get(e.transactionId());
            if (c == null) {
                c = backend.connectionFor(e.login());
                c.setAutoCommit(false);
                transactions.put(e.transactionId(), c);
            }
        }
        try (PreparedStatement ps = c.prepareStatement(e.sql())) {
            ParameterBinder.bindAll(ps, LoggedValues.fromLog(e.params()));
            ps.execute();
            applied++;
        } catch (SQLException failure) {
            unconfirmed.put(e.position(), failure);
        } finally {
            if (own) {
                c.close();
            }
        }
    }

    /**
     * Ends replay: transactions the log never ended failed to commit anywhere, so they are rolled
     * back. Throws if a statement failed here that did not fail on the other backends.
     */
    public void finish() throws SQLException {
        for (Connection c : transactions.values()) {
            try (c) {
                c.rollback();
            }
        }
        transactions.clear();
        if (!unconfirmed.isEmpty()) {
            Map.Entry<Long, SQLException> first = unconfirmed.entrySet().iterator().next();
            throw new SQLException("backend " + backend.name() + " diverged during replay: the write at log position "
                    + first.getKey() + " failed here but not elsewhere: " + first.getValue().getMessage(), "58030",
                    first.getValue());
        }
        LOG.info("backend {} replayed {} log entries up to position {}", backend.name(), applied, position);
    }

    @Override
    public void close() {
        for (Connection c : transactions.values()) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the pool rolls back what is left
            }
        }
        transactions.clear();
    }
}
