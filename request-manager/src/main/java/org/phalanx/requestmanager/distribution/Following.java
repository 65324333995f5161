package org.phalanx.requestmanager.distribution;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.hetero.BackendStatements;
import org.phalanx.requestmanager.hetero.CaseSensitiveLike;
import org.phalanx.requestmanager.recovery.FollowerCatchUp;
import org.phalanx.requestmanager.recovery.FollowerDumps;

/**
 * What a data member does while it is not the primary: keeps its backends current with its copy of
 * the group's log ({@link FollowerCatchUp}, on backends of its own), and once they have caught up,
 * serves read-only sessions from them (a request manager started without a log).
 *
 * @param <P> the request manager
 */
final class Following<P extends PrimaryDatabase> {
    private static final Logger LOG = LogManager.getLogger(Following.class);
    private static final long READERS_RETRY_MILLIS = 5_000;

    private final String virtualDatabase;
    private final String self;
    private final RecoveryLog local;
    private final List<Backend> backends = new ArrayList<>();
    /** Null when the backends' records could not be set up (logged). */
    private final FollowerCatchUp catchUp;
    private final GroupMember.PrimaryStarter<P> starter;
    /** Told null when the read-only sessions end, so their connections are closed. */
    private final Consumer<P> onSessionsEnd;
    private final boolean restored;
    private volatile P readers;
    private long readersRetryAt;
    /** Position of the last change of which backend holds which table (partial replication; -1: none). */
    private final LongSupplier lastSchemaChange;
    /** Where this member's tables are, under partial replication; null under full replication. */
    private final PartialPlacement partial;
    /** The log position up to which the readers know which backend holds which table. */
    private volatile long readersLearnedAt;

    /**
     * @param backendConfigs the backends this member holds now
     * @param restoreFrom    a dump to restore every backend from first (received in a snapshot), or null
     * @param partial        where this member's tables are (partial replication), or null
     */
    Following(String virtualDatabase, String self, List<BackendConfig> backendConfigs, RecoveryLog local,
              MemberDumps.Dump restoreFrom, GroupMember.PrimaryStarter<P> starter, Consumer<P> onSessionsEnd, Engine sqlDialect,
              LongSupplier lastSchemaChange, PartialPlacement partial) {
        this.virtualDatabase = virtualDatabase;
        this.partial = partial;
        this.lastSchemaChange = lastSchemaChange;
        this.self = self;
        this.local = local;
        this.starter = starter;
        this.onSessionsEnd = onSessionsEnd;
        for (BackendConfig bc : backendConfigs) {
            backends.add(new Backend(CaseSensitiveLike.forDialect(bc, sqlDialect), Duration.ofSeconds(5), b -> {
            }));
        }
        BackendStatements statements = new BackendStatements(virtualDatabase, backends, sqlDialect, 10_000); // the replay's few texts
        backends.forEach(b -> b.useStatements(statements::forBackend));
        this.restored = restoreFrom == null || restore(restoreFrom);
        FollowerCatchUp made = null;
        try {
            made = new FollowerCatchUp(virtualDatabase, backends, local);
        } catch (SQLException e) {
            LOG.error("virtual database {}: {} cannot keep its backends current with the group's log: {}",
                    virtualDatabase, self, e.getMessage());
        }
        this.catchUp = made;
    }

    private boolean restore(MemberDumps.Dump dump) {
        LOG.info("virtual database {}: {} restores its backends from the group's dump at log position {} ({})",
                virtualDatabase, self, dump.position(), dump.file());
        try {
            FollowerDumps.restore(backends, local, dump.file(), dump.position());
            if (partial != null) {
                // each table where this member's rules placed it when the dump was received (GroupMember.loadState)
                PlacementRecord placed = PlacementRecord.load(local);
                if (placed == null || placed.position() != dump.position()) {
                    throw new SQLException("no record of where the dump's tables go (" + placed + ")");
                }
                FollowerDumps.dropUnplaced(backends, dump.file(), placed.tables());
            }
            return true;
        } catch (SQLException | RuntimeException e) {
            LOG.error("virtual database {}: {} could not restore its backends from the group's dump (tried again): {}",
                    virtualDatabase, self, e.getMessage());
            return false;
        }
    }

    /** Whether the backends hold the dump they were to be restored from (true when there was none). */
    boolean restored() {
        return restored;
    }

    /**
     * Dumps a followed backend into {@code file}, if the backends hold exactly the
     * log up to a position now (none of their transactions open); returns that position, or -1.
     */
    long dump(Path file) throws SQLException {
        if (catchUp == null || catchUp.followed().isEmpty()) {
            return -1;
        }
        long at = catchUp.passToExactPosition();
        if (at < 0) {
            return -1;
        }
        if (partial == null) {
            FollowerDumps.take(catchUp.followed().get(0), file, at);
            return at;
        }
        return dumpUnion(file, at);
    }

    /**
     * Under partial replication: the union of the followed backends, each table from the first that
     * holds it at {@code at} by this member's placement (recorded with the dump by
     * {@link LogCompaction#withDump}). -1 while the placement at {@code at} is not known.
     */
    private long dumpUnion(Path file, long at) throws SQLException {
        PlacementRecord placed = partial.viewAt(at);
        if (placed == null) {
            return -1; // a table created or dropped since: the next round
        }
        Map<Backend, Set<String>> parts = new LinkedHashMap<>();
        Set<String> missing = new TreeSet<>(placed.union());
        for (Backend b : catchUp.followed()) {
            Set<String> from = new TreeSet<>(placed.tables().getOrDefault(b.name(), Set.of()));
            from.retainAll(missing);
            missing.removeAll(from);
            if (!from.isEmpty()) {
                parts.put(b, from);
            }
        }
        if (parts.isEmpty()) {
            parts.put(catchUp.followed().get(0), Set.of()); // no table yet: an empty dump
        }
        if (!missing.isEmpty()) { // as on the primary: an error, the automatic compaction tried again in a minute
            throw new SQLException("controller " + self + " cannot dump tables " + missing + ": none of its backends"
                    + " that follow the log holds them", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        FollowerDumps.takeUnion(parts, file, at);
        return at;
    }

    /**
     * One round: the backends brought to the copy's end, then read-only sessions served from them
     * unless {@code noReads} (this member is cut off from a majority of the group: what it holds may
     * be stale).
     */
    void step(boolean noReads) {
        if (catchUp == null) {
            return;
        }
        catchUp.pass();
        relearnSchema();
        if (noReads) {
            if (readers != null) {
                LOG.warn("virtual database {}: {} stops serving read-only sessions: it sees less than a majority of"
                        + " its group", virtualDatabase, self);
                stopReaders();
            }
            return;
        }
        if (readers == null && !catchUp.followed().isEmpty() && catchUp.caughtUpTo() >= local.lastPosition()
                && System.currentTimeMillis() >= readersRetryAt) {
            try {
                readersLearnedAt = catchUp.caughtUpTo();
                readers = starter.start(null, catchUp.followed().stream().map(Backend::config).toList());
                LOG.info("virtual database {}: {} serves read-only sessions from its backends", virtualDatabase, self);
            } catch (SQLException | RuntimeException e) {
                readersRetryAt = System.currentTimeMillis() + READERS_RETRY_MILLIS;
                LOG.warn("virtual database {}: {} cannot serve read-only sessions yet: {}", virtualDatabase, self,
                        e.getMessage());
            }
        }
    }

    /**
     * Under partial replication, once the backends hold a change of which backend holds which table
     * (a table created, say), the readers learn it: else they would not know where to read it.
     */
    private void relearnSchema() {
        long change = lastSchemaChange.getAsLong();
        P reading = readers;
        if (reading == null || change <= readersLearnedAt || catchUp.caughtUpTo() < change) {
            return;
        }
        long at = catchUp.caughtUpTo();
        try {
            reading.relearnSchema();
            readersLearnedAt = at;
        } catch (SQLException | RuntimeException e) {
            LOG.warn("virtual database {}: {} could not learn its backends' tables again for its readers (tried"
                    + " again): {}", virtualDatabase, self, e.getMessage());
        }
    }

    /**
     * Returns once the backends hold every committed unit up to {@code position}, or throws when
     * {@code deadline} (System.nanoTime) passes first or this follower stops.
     */
    void awaitCaughtUp(long position, long deadline, Runnable hurry) throws SQLException {
        // and, under partial replication, the readers know where the tables created up to there are
        while (catchUp == null || catchUp.caughtUpTo() < position
                || readersLearnedAt < Math.min(lastSchemaChange.getAsLong(), position)) {
            if (readers == null || System.nanoTime() - deadline > 0) {
                throw new SQLException("controller " + self + " could not bring its backends to the group's log"
                        + " position " + position + " in time: read on another member, or on the primary",
                        SqlState.IO_ERROR.code());
            }
            hurry.run();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    /** The request manager of the read-only sessions, or null before the backends have caught up. */
    P readers() {
        return readers;
    }

    /** This member's backends and their saved states. */
    Map<String, String> states() {
        return catchUp == null ? Map.of() : catchUp.states();
    }

    /** Ends the read-only sessions (their connections closed: the drivers go on elsewhere) and releases the backends. */
    void stop() {
        stopReaders();
        backends.forEach(b -> b.close(Duration.ZERO));
    }

    private void stopReaders() {
        P reading = readers;
        readers = null;
        if (reading != null) {
            onSessionsEnd.accept(null);
            reading.shutdown(Duration.ofSeconds(1));
        }
    }
}
