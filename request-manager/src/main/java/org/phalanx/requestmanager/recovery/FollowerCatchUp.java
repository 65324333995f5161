package org.phalanx.requestmanager.recovery;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.CloseableIterator;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.backend.Backend;

/**
 * Keeps the backends of a controller that is not the group's primary current with its copy of the
 * log: each {@link #pass()} gives every followed backend, by crash recovery
 * ({@link CrashRecovery}), exactly the committed units it lacks, then raises its record's floor to
 * the last position where no transaction was open, so the next pass reads little. Transactions
 * still open on the primary wait for their commit; a unit that fails here waits for the primary's
 * verdict (a FAILED entry) before the backend counts as current.
 *
 * <p>A backend is followed when its saved state says it holds the log ("enabled", "synced@N"), or
 * when it has none (a new member: its empty database is the log's start). The others (disabled or
 * failed by an operator or by divergence) are left alone: the primary's start-up decides for them.
 * A followed backend is saved as "enabled", so that when this controller becomes primary its
 * start-up checks it against the log by its record, as after a crash.
 */
public final class FollowerCatchUp {
    private static final Logger LOG = LogManager.getLogger(FollowerCatchUp.class);
    /**
     * How often a pass raises the record floors (a transaction on each backend): often enough that
     * a pass reads little, not at every pass, which under a steady stream of writes would cost the
     * backends a transaction each per pass and delay what the followers' readers wait for.
     */
    private static final Duration FLOOR_RAISE_INTERVAL = Duration.ofSeconds(1);

    private final String virtualDatabase;
    private final RecoveryLog log;
    private final BackendStates states;
    private final List<Backend> followed = new ArrayList<>();
    private volatile long caughtUpTo = -1;
    private long floor;
    private long waitingSince;
    private final long floorRaiseNanos;
    private long floorRaisedAt;

    /** @throws SQLException when a new backend's record cannot be created */
    public FollowerCatchUp(String virtualDatabase, List<Backend> backends, RecoveryLog log) throws SQLException {
        this(virtualDatabase, backends, log, FLOOR_RAISE_INTERVAL);
    }

    FollowerCatchUp(String virtualDatabase, List<Backend> backends, RecoveryLog log, Duration floorRaiseInterval)
            throws SQLException {
        this.floorRaiseNanos = floorRaiseInterval.toNanos();
        this.floorRaisedAt = System.nanoTime() - floorRaiseNanos; // the first pass raises them
        this.virtualDatabase = virtualDatabase;
        this.log = log;
        this.states = new BackendStates(log);
        Map<String, String> stored = states.stored();
        for (Backend b : backends) {
            String state = stored.get(BackendStates.key(b));
            if (state == null) {
                try (Connection c = b.connection(b.config().credentials())) {
                    AppliedPositions.reset(c, AppliedTable.of(b), 0); // empty, as the group's log starts
                }
                states.enabled(b);
                followed.add(b);
            } else if (state.equals(BackendStates.ENABLED) || state.startsWith(BackendStates.SYNCED_AT)) {
                states.enabled(b);
                followed.add(b);
            } else {
                LOG.warn("virtual database {}: backend {} is not kept current with the group's log ({})",
                        virtualDatabase, b.name(), state);
            }
        }
        this.floor = lowestFloor();
    }

    /**
     * Where the search for a quiet point starts: the lowest record floor of the followed backends,
     * each a position no transaction was open at. Not the log's start: after a dump was restored the
     * log holds, below the dump, entries of transactions whose end it lacks (they were open when this
     * member stopped), which would never look closed, and the floor would never reach the log's end.
     */
    private long lowestFloor() {
        long lowest = Long.MAX_VALUE;
        for (Backend b : followed) {
            try (Connection c = b.connection(b.config().credentials())) {
                lowest = Math.min(lowest, AppliedPositions.read(c, AppliedTable.of(b)).floor());
            } catch (SQLException e) {
                return 0; // read from the log's start, as before any record
            }
        }
        return lowest == Long.MAX_VALUE ? 0 : lowest;
    }

    /** The backends kept current. */
    public List<Backend> followed() {
        return List.copyOf(followed);
    }

    /** The log position every followed backend holds (all committed units up to it). */
    public long caughtUpTo() {
        return Math.max(caughtUpTo, 0);
    }

    /**
     * The position the followed backends hold exactly — every committed unit up to it, and no
     * transaction open there, whose writes would wait for its commit — or -1 when they do not now.
     */
    public long exactPosition() {
        return caughtUpTo >= 0 && floor == caughtUpTo ? caughtUpTo : -1;
    }

    /** Brings the followed backends to the copy's end. */
    public void pass() {
        pass(false);
    }

    /**
     * Brings the followed backends to the copy's end and raises their record floors as far as
     * they go now: the position they hold exactly, or -1 when a transaction is open there.
     */
    public long passToExactPosition() {
        pass(true);
        return exactPosition();
    }

    private void pass(boolean raiseFloors) {
        long last = log.lastPosition();
        if (followed.isEmpty()) {
            return;
        }
        if (last == caughtUpTo) { // nothing new: the floors follow once due (writes stopped: they reach the end)
            if (floor != caughtUpTo && (raiseFloors || floorsDue())) {
                raiseFloors(last);
            }
            return;
        }
        Map<Backend, CrashRecovery.Outcome> outcomes;
        try {
            outcomes = CrashRecovery.recover(followed, log, last, new CrashRecovery.LogAppender() {
                @Override
                public void failed(long position) {
                    throw new AwaitingVerdict(position);
                }

                @Override
                public void rolledBack(long transactionId, String login, Set<String> backends) {
                    // still open on the primary: its commit or rollback comes later in the log
                }
            });
        } catch (AwaitingVerdict e) {
            if (waitingSince == 0) {
                waitingSince = System.currentTimeMillis();
                LOG.info("virtual database {}: log position {} fails here; waiting for the primary's verdict on it",
                        virtualDatabase, e.position);
            }
            return;
        } catch (SQLException | RuntimeException e) {
            LOG.warn("virtual database {}: catching up with the group's log failed (tried again): {}",
                    virtualDatabase, e.getMessage());
            return;
        }
        waitingSince = 0;
        boolean allCurrent = true;
        for (Map.Entry<Backend, CrashRecovery.Outcome> o : outcomes.entrySet()) {
            Backend b = o.getKey();
            if (o.getValue() instanceof CrashRecovery.Outcome.Failed f) {
                followed.remove(b);
                states.failed(b);
                LOG.error("virtual database {}: backend {} diverged from the group's log and is no longer kept current"
                        + " ({}). Restore a dump of an up-to-date backend onto it", virtualDatabase, b.name(), f.reason());
            } else if (o.getValue() instanceof CrashRecovery.Outcome.Unreachable u) {
                allCurrent = false;
                LOG.warn("virtual database {}: backend {} does not answer ({}); caught up once it does",
                        virtualDatabase, b.name(), u.reason());
            }
        }
        if (allCurrent) {
            caughtUpTo = last;
            if (raiseFloors || floorsDue()) {
                raiseFloors(last);
            }
        }
    }

    private boolean floorsDue() {
        return System.nanoTime() - floorRaisedAt >= floorRaiseNanos;
    }

    /** Every followed backend holds every unit up to {@code last}: the floor goes to the last quiet point. */
    private void raiseFloors(long last) {
        floorRaisedAt = System.nanoTime();
        long quiet = quietPoint(last);
        if (quiet <= floor) {
            return;
        }
        for (Backend b : followed) {
            try (Connection c = b.connection(b.config().credentials())) {
                AppliedPositions.raiseFloor(c, AppliedTable.of(b), quiet);
                log.setCheckpoint(AppliedRecords.checkpointName(b), quiet); // a purge keeps what recovery reads
            } catch (SQLException e) {
                LOG.warn("virtual database {}: the record floor of backend {} could not be raised: {}",
                        virtualDatabase, b.name(), e.getMessage());
                return;
            }
        }
        floor = quiet;
    }

    /** The last position up to {@code last} where no transaction was open (none is open at the current floor). */
    private long quietPoint(long last) {
        Map<Long, Long> openSince = new HashMap<>();
        try (CloseableIterator<LogEntry> entries = log.read(floor)) {
            while (entries.hasNext()) {
                LogEntry e = entries.next();
                if (e.position() > last) {
                    break;
                }
                switch (e.kind()) {
                    case WRITE -> openSince.putIfAbsent(e.transactionId(), e.position());
                    case COMMIT, ROLLBACK -> openSince.remove(e.transactionId());
                    default -> {
                    }
                }
            }
        } catch (Exception e) {
            return floor;
        }
        return openSince.values().stream().mapToLong(p -> p - 1).min().orElse(last);
    }

    /** The states of the backends this controller holds, by name, as a follower sees them. */
    public Map<String, String> states() {
        Map<String, String> byName = new LinkedHashMap<>();
        states.stored().forEach((k, v) -> byName.put(k.substring(k.indexOf('.') + 1), v));
        return byName;
    }

    /** A unit failed here that the primary has not yet said failed everywhere. */
    private static final class AwaitingVerdict extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final long position;

        AwaitingVerdict(long position) {
            super(null, null, false, false);
            this.position = position;
        }
    }
}
