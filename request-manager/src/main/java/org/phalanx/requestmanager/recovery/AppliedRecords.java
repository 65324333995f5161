package org.phalanx.requestmanager.recovery;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.CloseableIterator;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.SqlStates;

/**
 * The backends' own records of the log positions they applied ({@link AppliedPositions}), kept
 * with a recovery log so that crash recovery can prove what each backend holds: when a backend
 * keeps one, which units it failed, and how far each record's floor may be raised.
 */
public final class AppliedRecords {
    private static final Logger LOG = LogManager.getLogger(AppliedRecords.class);
    /** Without a checkpoint this often (in positions), floors are raised on their own, so the record stays small. */
    static final long FLOOR_EVERY = 10_000;

    private final String virtualDatabase;
    /** Null without a recovery log (then no backend keeps a record). */
    private final RecoveryLog log;
    /**
     * Positions of units a backend failed, until they are known to have failed everywhere: its
     * floor must not pass them (if it diverged, it is being disabled).
     */
    private final Map<Backend, ConcurrentSkipListSet<Long>> unsettledFailures = new ConcurrentHashMap<>();
    /** The position floors were last raised to (a checkpoint's, or a floor-only pause's). */
    private volatile long lastFloorRaise;

    public AppliedRecords(String virtualDatabase, RecoveryLog log) {
        this.virtualDatabase = virtualDatabase;
        this.log = log;
    }

    /**
     * Whether a backend records the positions it applies: with a recovery log, every backend (a
     * nested controller in a table of its virtual database, {@link AppliedTable#of(Backend)}).
     */
    public boolean recordsApplied(Backend b) {
        return log != null;
    }

    /**
     * The floor of {@code b}'s record (it applied everything up to it), or null when it has no readable
     * record; a lost connection is thrown.
     */
    Long floorOf(Backend b) throws SQLException {
        AppliedPositions.Applied applied = readRecord(b);
        return applied == null ? null : applied.floor();
    }

    /** {@code b}'s record, or null when it has none readable (logged); a lost connection is thrown. */
    private AppliedPositions.Applied readRecord(Backend b) throws SQLException {
        try (Connection c = b.connection(b.config().credentials())) {
            return AppliedPositions.read(c, AppliedTable.of(b));
        } catch (SQLException e) {
            if (BackendErrors.isConnectionFailure(e)) {
                throw e;
            }
            LOG.warn("virtual database {}: backend {} has no readable record of what it applied ({})", virtualDatabase,
                    b.name(), e.getMessage());
            return null;
        }
    }

    /**
     * Which log entries after {@code from} a backend still lacks, by its own record: the truth
     * about what it applied, also after a crash or a failure in the middle of an earlier replay
     * (so nothing is applied twice). A transaction's writes are judged by their COMMIT's position,
     * found by reading the log ahead. Without a readable record, the record is set to
     * {@code from} (its data is the log up to there) and every entry after it is lacking.
     */
    Predicate<LogEntry> lacking(Backend b, long from) throws SQLException {
        AppliedPositions.Applied applied = readRecord(b);
        if (applied == null) {
            LOG.warn("virtual database {}: backend {}: replaying everything after position {}", virtualDatabase,
                    b.name(), from);
            reset(b, from);
            return e2 -> true;
        }
        log.setCheckpoint(checkpointName(b), applied.floor()); // a purge keeps what it lacks
        Map<Long, Long> commitOf = new HashMap<>();
        try (CloseableIterator<LogEntry> entries = log.read(from)) {
            while (entries.hasNext()) {
                LogEntry e = entries.next();
                if (e.kind() == LogEntry.Kind.COMMIT) {
                    commitOf.put(e.transactionId(), e.position());
                }
            }
        } catch (Exception e) {
            throw new SQLException("could not read the recovery log after position " + from + ": " + e.getMessage(),
                    SqlState.IO_ERROR.code(), e);
        }
        return e -> switch (e.kind()) {
            case STATEMENT -> !applied.has(e.position());
            case WRITE -> !applied.has(commitOf.getOrDefault(e.transactionId(), Long.MAX_VALUE));
            default -> true;
        };
    }

    /**
     * Empties a backend's record (creating the table if missing): "nothing is known about what it
     * holds", until {@link #reset}. An empty record cannot be read ({@link AppliedPositions#read}).
     */
    void clear(Backend b) throws SQLException {
        try (Connection c = b.connection(b.config().credentials())) {
            AppliedPositions.clear(c, AppliedTable.of(b));
        }
    }

    /**
     * Whether a backend's record says exactly "everything up to {@code position} applied, nothing
     * after": what a restore of a dump taken there leaves once complete. False when the record
     * says anything else or cannot be read.
     */
    boolean restoredTo(Backend b, long position) {
        try (Connection c = b.connection(b.config().credentials())) {
            AppliedPositions.Applied a = AppliedPositions.read(c, AppliedTable.of(b));
            return a.floor() == position && a.above().isEmpty();
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    /** Sets a backend's record to "everything up to {@code position} applied, nothing after". */
    void reset(Backend b, long position) throws SQLException {
        try (Connection c = b.connection(b.config().credentials())) {
            AppliedPositions.reset(c, AppliedTable.of(b), position);
        }
        log.setCheckpoint(checkpointName(b), position);
    }

    /**
     * A replay brought a backend up to {@code position} (writes quiesced): its floor is raised
     * there, so its record holds no position of a unit it was not sent live. Throws if it cannot
     * be (the enable fails and can be resumed).
     */
    void raiseFloorAfterReplay(Backend b, long position) throws SQLException {
        try (Connection c = b.connection(b.config().credentials())) {
            AppliedPositions.raiseFloor(c, AppliedTable.of(b), position);
        }
        log.setCheckpoint(checkpointName(b), position);
    }

    /** The checkpoint at a backend's record floor: a purge keeps what its crash recovery would read. */
    static String checkpointName(Backend b) {
        return "applied-" + b.name();
    }

    /**
     * Whether the unit at {@code position} committed on {@code b}, asked once {@code lost} said the
     * connection running it (its statement or its commit) was lost; null when that cannot be told.
     * With a record, the unit's record row is inserted in a new transaction, then rolled back: a
     * duplicate key says the unit committed; an insert that passes says it did not, and never will (a
     * commit still finishing would hold that row's key, and the insert would wait for its outcome).
     * Without one, a PostgreSQL session the server ended instead of answering ({@code 57P01}...) is
     * taken as not committed: the server answers what it committed before it ends the session.
     */
    public Boolean committedAfterLostConnection(Backend b, long position, SQLException lost) {
        if (!BackendErrors.isConnectionFailure(lost) || !b.isEnabled()) {
            return null; // out already (a hang's connections are aborted under it): replay will tell
        }
        if (!recordsApplied(b)) {
            return BackendErrors.isSessionEndedByServer(lost) ? Boolean.FALSE : null;
        }
        if (!b.connects()) {
            return null; // not within the connection timeout: a hung server must not hold the client
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return committed(b, position);
            } catch (SQLException | RuntimeException e) {
                if (attempt == 1 && e instanceof SQLException sql && BackendErrors.isConnectionFailure(sql)) {
                    continue; // the sessions were being ended (a DBA's kill still reaching new ones): once more
                }
                LOG.warn("virtual database {}: backend {}: could not tell whether position {} committed: {}",
                        virtualDatabase, b.name(), position, e.getMessage());
                return null;
            }
        }
    }

    /** Asks a connection of its own: the pool's others may have died with the lost one. */
    private static boolean committed(Backend b, long position) throws SQLException {
        AppliedTable t = AppliedTable.of(b);
        try (Connection c = b.newAdminConnection()) {
            if (AppliedPositions.read(c, t).has(position)) {
                return true;
            }
            c.setAutoCommit(false);
            try {
                AppliedPositions.record(c, t, position);
                return false;
            } catch (SQLException e) {
                if (SqlState.INTEGRITY_CONSTRAINT_VIOLATION.isClassOf(SqlStates.normalize(e, b.dialect()).getSQLState())) {
                    return true;
                }
                throw e;
            } finally {
                c.rollback();
                c.setAutoCommit(true);
            }
        }
    }

    /** A unit (auto-commit write or commit) failed on a backend. */
    public void unitFailed(Backend b, long position) {
        if (recordsApplied(b)) {
            unsettledFailures.computeIfAbsent(b, k -> new ConcurrentSkipListSet<>()).add(position);
        }
    }

    /** The unit at that position failed on every backend: no backend lacks it. */
    void failedEverywhere(long position) {
        for (ConcurrentSkipListSet<Long> failed : unsettledFailures.values()) {
            failed.remove(position);
        }
    }

    /** A backend left service as failed: its record no longer matters. */
    void forget(Backend b) {
        unsettledFailures.remove(b);
    }

    /** Floors were just raised to (or are known to be at) this position. */
    void raisedTo(long position) {
        lastFloorRaise = position;
    }

    /** Whether the floors are due to be raised at this position without a checkpoint; claims the raise if so. */
    boolean claimFloorRaise(long position) {
        if (position - lastFloorRaise < FLOOR_EVERY) {
            return false;
        }
        lastFloorRaise = position;
        return true;
    }

    /**
     * With writes quiesced (no transaction open, everything up to {@code position} queued): once
     * each enabled backend has run what is queued, everything up to {@code position} is applied
     * there, and its record's floor is raised to it (on {@code background}, not holding writes).
     */
    void raiseFloors(List<Backend> enabled, long position, Executor background) {
        lastFloorRaise = position;
        for (Backend b : enabled) {
            if (recordsApplied(b)) {
                b.queuedSoFar().thenRun(() -> background.execute(() -> raiseFloor(b, position)));
            }
        }
    }

    private void raiseFloor(Backend b, long position) {
        ConcurrentSkipListSet<Long> failed = unsettledFailures.get(b);
        if (!b.isEnabled() || (failed != null && !failed.isEmpty() && failed.first() <= position)) {
            return; // it may lack a unit up to there: keep the floor where it is
        }
        try (Connection c = b.connection(b.config().credentials())) {
            AppliedPositions.raiseFloor(c, AppliedTable.of(b), position);
            log.setCheckpoint(checkpointName(b), position); // after: the log may keep more, never less
        } catch (SQLException | RuntimeException e) {
            LOG.warn("virtual database {}: backend {}: its record of applied positions was not trimmed: {}",
                    virtualDatabase, b.name(), e.getMessage());
        }
    }
}
