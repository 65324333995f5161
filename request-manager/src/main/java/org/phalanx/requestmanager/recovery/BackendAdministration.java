package org.phalanx.requestmanager.recovery;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.recoverylog.dump.Backuper;
import org.phalanx.recoverylog.dump.Backupers;
import org.phalanx.recoverylog.dump.DumpException;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.recoverylog.dump.PortableBackuper;
import org.phalanx.recoverylog.dump.Progress;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.Backends;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.routing.SchemaLearner;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.scheduler.LockManager;
import org.phalanx.requestmanager.scheduler.Quiesce;
import org.phalanx.requestmanager.scheduler.Scheduler;

/**
 * What an operator does to backends while the virtual database keeps serving: checkpoints,
 * disable at a checkpoint, enable by replay, dumps and restores, log purge. Writes pause only
 * for the instants that must be consistent.
 */
public final class BackendAdministration {
    private static final Logger LOG = LogManager.getLogger(BackendAdministration.class);
    /** A catch-up pass this short leaves little for the pass that pauses writes. */
    private static final long SHORT_PASS_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(200);
    /** At most this many passes while writes go on (a writer faster than the replay never lets one be short). */
    private static final int CATCH_UP_PASSES = 10;

    private final String name;
    private final Backends backends;
    /** Null without a recovery log. */
    private final RecoveryLog log;
    private final RecoveryConfig config;
    private final LogWriter logWriter;
    private final Scheduler scheduler;
    private final AppliedRecords applied;
    private final BackendStates states;
    private final CheckpointSchedule schedule;
    private final SchemaView schema;
    private final SqlAnalyzer analyzer;
    /** Under partial replication a backend replays only writes on tables it holds. */
    private final boolean partial;

    /** The administration of a virtual database, with its recovery log if {@code config} is not null. */
    public BackendAdministration(String name, Backends backends, RecoveryConfig config, Scheduler scheduler,
                                  SchemaView schema, SqlAnalyzer analyzer, boolean partial) {
        this.name = name;
        this.backends = backends;
        this.config = config;
        this.log = config == null ? null : config.log();
        this.scheduler = scheduler;
        this.schema = schema;
        this.analyzer = analyzer;
        this.partial = partial;
        this.applied = new AppliedRecords(name, log);
        this.states = new BackendStates(log);
        this.schedule = log == null ? null : new CheckpointSchedule(name, config, applied);
        this.logWriter = log == null ? LogWriter.NONE : new DurableLogWriter(log, scheduler, applied, schedule::appended);
    }

    /** The log stage the request path writes through. */
    public LogWriter logWriter() {
        return logWriter;
    }

    /** The backends' records of applied positions (the write path reports failed units). */
    public AppliedRecords applied() {
        return applied;
    }

    public boolean hasRecoveryLog() {
        return log != null;
    }

    /** Brings backends into service at start (after a crash too); see {@link Startup}. */
    public void start() throws SQLException {
        new Startup(name, backends, log, config, logWriter, scheduler, applied, states, schema, this).start();
    }

    /** Starts the checkpoint schedule, once the backends are in service. */
    void startSchedule(long lastPosition) {
        applied.raisedTo(lastPosition);
        schedule.start(this::scheduledCheckpoint, this::raiseFloorsNow);
    }

    /** The checkpoint a disabled backend can be replayed from, if any. */
    public Optional<Long> checkpointOf(String backendName) {
        return states.checkpointOf(backendName);
    }

    /**
     * A backend failed (it was disabled by the request path). One that only hung or fell behind is
     * replayable from its record's floor; otherwise its position is unknown and only a restored dump brings it back.
     */
    public void backendFailed(Backend b) {
        Long floor = b.leftToCatchUp() && applied.recordsApplied(b)
                ? log.checkpoint(AppliedRecords.checkpointName(b)).orElse(null) : null;
        applied.forget(b);
        if (floor != null) {
            states.disabledAt(b, floor); // its own record tells enable what it lacks from there
        } else {
            states.failed(b);
        }
        if (backends.enabled().isEmpty()) {
            LOG.error("virtual database {} has no enabled backend left", name);
        }
    }

    /** Records a named checkpoint at the current position (writes pause while it is taken). */
    public long checkpoint(String checkpointName) throws SQLException {
        requireLog("take a checkpoint");
        try (Quiesce q = scheduler.quiesce()) {
            long position = durableEnd();
            log.setCheckpoint(checkpointName, position);
            applied.raiseFloors(backends.enabled(), position, schedule::run);
            return position;
        }
    }

    /** Takes the scheduled checkpoint "auto" (replacing the previous one). */
    private void scheduledCheckpoint() {
        try {
            long position = checkpoint("auto");
            LOG.debug("virtual database {}: scheduled checkpoint at {}", name, position);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("virtual database {}: scheduled checkpoint failed: {}", name, e.getMessage());
        }
    }

    /** Raises the floors with writes paused for an instant, as a checkpoint does but recording nothing in the log. */
    private void raiseFloorsNow() {
        try (Quiesce q = scheduler.quiesce()) {
            applied.raiseFloors(backends.enabled(), durableEnd(), schedule::run);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("virtual database {}: applied positions were not trimmed: {}", name, e.getMessage());
        }
    }

    /** Drops a named checkpoint (a deleted dump's), so purge may pass it. */
    public void removeCheckpoint(String checkpointName) throws SQLException {
        requireLog("remove a checkpoint");
        log.removeCheckpoint(checkpointName);
    }

    /** Deletes log entries older than the oldest checkpoint; returns how many. */
    public long purgeLog() throws SQLException {
        requireLog("purge the log");
        return log.purge();
    }

    /**
     * Replays the log onto a disabled backend from its checkpoint while the others keep serving,
     * then, with writes paused for the final catch-up only, puts it back in service.
     */
    public void enableBackend(String backendName) throws SQLException {
        enable(backendName, b -> {
        });
    }

    /** Checks a backend, replayed to the log's end with writes paused, before it is put in service. */
    @FunctionalInterface
    private interface ServiceCheck {
        void check(Backend b) throws SQLException;
    }

    private void enable(String backendName, ServiceCheck beforeService) throws SQLException {
        Backend b = backends.named(backendName);
        if (b.isEnabled()) {
            return;
        }
        if (log == null) {
            b.enable(); // nothing to catch up from: the operator vouches for it
            return;
        }
        b.checkNothingRunning(); // what a hung server still runs could commit behind the replay's back
        Long checkpoint = states.checkpointOf(backendName).orElse(null);
        if (checkpoint == null) {
            throw new SQLException("backend " + backendName + " has no checkpoint to replay from (it failed):"
                    + " restore a dump onto it first", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        boolean recorded = applied.recordsApplied(b);
        long from = recorded ? replayStart(b, checkpoint) : checkpoint;
        b.recoveryState(BackendState.REPLAYING);
        states.replaying(b, from); // what a crash from here on leaves: the next start resumes it, or fails it
        try {
            logWriter.awaitAppended();
            // its own record says what it applied after its checkpoint (an earlier replay cut short): not again
            Predicate<LogEntry> lacking = recorded ? applied.lacking(b, from) : e -> true;
            try (Replayer replay = new Replayer(b, log, from, e -> appliesTo(b, e) && lacking.test(e), recorded)) {
                catchUpWhileWritesGoOn(replay);
                try (Quiesce q = scheduler.quiesce()) {
                    logWriter.awaitAppended();
                    replay.replayUntil(scheduler.lastPosition());
                    replay.finish();
                    beforeService.check(b);
                    if (recorded) {
                        // it holds everything up to here: its record drops the units it got by replay, which
                        // were not sent to it and which crash recovery would take for a contradiction
                        applied.raiseFloorAfterReplay(b, durableEnd());
                    }
                    b.enable();
                    SchemaLearner.learn(b, schema, new ArrayList<>());
                }
            }
            states.noCheckpoint(b);
            log.removeCheckpoint("backend-" + backendName); // no longer needed: purge may pass it
            states.enabled(b);
        } catch (SQLException | RuntimeException e) {
            b.recoveryState(BackendState.DISABLED);
            String next;
            if (recorded) {
                states.disabledAt(b, from); // partly replayed, and its record says how far: enable resumes
                next = "enable it again to resume";
            } else {
                states.failed(b); // partly replayed: its position is no longer the checkpoint
                next = "restore a dump onto it";
            }
            b.stayedDisabled("its enable failed: " + e.getMessage() + " - " + next);
            LOG.error("backend {}: its enable failed, it stays disabled ({}): {}", backendName, next, e.getMessage());
            throw e;
        }
    }

    /**
     * Replays to the log's end while clients keep writing, again and again until a pass is short:
     * the last pass, with writes paused, then has only what arrived during that one (it had what
     * arrived during the whole first pass, which on a busy log paused every client's writes for
     * as long as that pass had taken, 21 s in an outside test). A writer faster than the replay
     * never lets a pass be short: after {@link #CATCH_UP_PASSES} the pause takes what is left.
     */
    private void catchUpWhileWritesGoOn(Replayer replay) throws SQLException {
        for (int pass = 1; ; pass++) {
            long start = System.nanoTime();
            replay.replayUntil(scheduler.lastPosition());
            if (System.nanoTime() - start < SHORT_PASS_NANOS || pass == CATCH_UP_PASSES) {
                return;
            }
            logWriter.awaitAppended();
        }
    }

    /**
     * Where a replay of {@code b} starts: its checkpoint, or the floor of its own record when that is
     * lower, what the record shows applied after it being skipped - so a database put back from an
     * older copy while it was disabled gets what it lacks (replayed from the checkpoint, it was enabled
     * without it and served stale rows). Refused when the log no longer holds what it may lack.
     */
    private long replayStart(Backend b, long checkpoint) throws SQLException {
        Long floor = applied.floorOf(b);
        if (floor == null || floor >= checkpoint) {
            return checkpoint;
        }
        if (floor < log.purgedThrough()) {
            throw new SQLException("backend " + b.name() + " holds data older than its checkpoint (" + checkpoint
                    + "): its record of applied positions ends at " + floor + ", and the log's entries up to "
                    + log.purgedThrough() + " were purged; restore a dump onto it",
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        // what its record shows applied after the floor is skipped: for a backend disabled as usual nothing more is
        // replayed than from the checkpoint (a few more entries read)
        LOG.debug("virtual database {}: backend {} replayed from its record's floor {} (checkpoint {})", name, b.name(),
                floor, checkpoint);
        return floor;
    }

    /**
     * Learns again which enabled backend holds which table: a group follower's readers, whose
     * backends the log's replay changes under them (a table created there after they started).
     */
    public void relearnSchema() throws SQLException {
        for (Backend b : backends.enabled()) {
            SchemaLearner.learn(b, schema, new ArrayList<>());
        }
    }

    /**
     * Under full replication a backend taken over must hold every table the others hold: one its
     * owner replicated partially (RAIDb-2, RAIDb-0) lacks some, and replaying the log from its
     * record would not create them (tables created before its record's floor).
     */
    private void holdsEveryTable(Backend b) throws SQLException {
        if (partial) {
            return;
        }
        Set<String> lacking = new TreeSet<>();
        for (Backend other : backends.enabled()) { // their metadata: full replication keeps no view of tables
            try (Connection c = other.connection(other.config().credentials())) {
                lacking.addAll(SchemaLearner.tables(c));
            }
        }
        try (Connection c = b.connection(b.config().credentials())) {
            lacking.removeAll(SchemaLearner.tables(c));
        }
        if (!lacking.isEmpty()) {
            throw new SQLException("backend " + b.name() + " lacks tables the others hold (" + String.join(", ", lacking)
                    + "): its owner replicated partially (RAIDb-2, RAIDb-0), and a member replicating fully cannot"
                    + " take it over; restore a dump onto it, then enable it", SqlState.FEATURE_NOT_SUPPORTED.code());
        }
    }

    private boolean appliesTo(Backend b, LogEntry e) {
        if (!partial) {
            return true;
        }
        SqlAnalysis a = analyzer.analyze(LoggedSettings.fromLog(e.sql()).sql());
        if (a.allTables() || a.ddl() != null) {
            return true;
        }
        for (String t : a.writtenTables()) {
            if (!schema.holds(b, t)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes into service a backend another member of the group kept current and this controller now
     * holds (docs/distribution.md, Taking over a member's backends): its own record of applied
     * positions says what it lacks, replayed as for an enable while the others keep serving.
     * Refused when the log no longer holds what it lacks.
     */
    public void adoptBackend(String backendName) throws SQLException {
        requireLog("take a backend over");
        Backend b = backends.named(backendName);
        if (b.isEnabled()) {
            return;
        }
        if (!applied.recordsApplied(b)) {
            throw new SQLException("backend " + backendName + " keeps no record of the log positions it applied: it"
                    + " cannot be taken over", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        long floor;
        try (Connection c = b.connection(b.config().credentials())) {
            floor = AppliedPositions.read(c, AppliedTable.of(b)).floor();
        }
        if (floor < log.purgedThrough()) {
            throw new SQLException("backend " + backendName + " holds the log up to position " + floor + " only, and"
                    + " this controller's log is purged through " + log.purgedThrough() + ": restore a dump onto it,"
                    + " then enable it", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        log.setCheckpoint("backend-" + backendName, floor); // a purge keeps what it lacks
        states.disabledAt(b, floor);
        enable(backendName, this::holdsEveryTable);
        LOG.info("virtual database {}: backend {} taken over (it held the log up to position {})", name, backendName,
                floor);
    }

    /**
     * Stops using a backend this controller gives back to its owner, another member of the group
     * (docs/distribution.md, Giving backends back): taken out of service as by a disable — writes
     * pause until it has applied everything queued — so that nothing is written to it after this
     * returns, and saved as held by {@code owner}. Its owner brings it to the log's end by its own
     * record of applied positions, so this controller keeps no checkpoint for it (a purge may pass).
     */
    public void releaseBackend(String backendName, String owner) throws SQLException {
        requireLog("give a backend back");
        Backend b = backends.named(backendName);
        disableBackend(backendName);
        b.checkNothingRunning(); // a statement a hung server still runs could commit after the owner's replay
        log.removeCheckpoint("backend-" + backendName);
        states.noCheckpoint(b); // not to be enabled from here: the owner holds it
        BackendHolding.heldElsewhere(log, backendName, owner);
        LOG.info("virtual database {}: backend {} is given back to member {}", name, backendName, owner);
    }

    /**
     * Takes a backend out of service at a checkpoint: writes pause until it has applied everything
     * queued, so its data is exactly the log up to that position and it can be replayed later.
     */
    public void disableBackend(String backendName) throws SQLException {
        Backend b = backends.named(backendName);
        if (!b.isEnabled()) {
            return;
        }
        if (log == null) {
            b.disableByOperator();
            return;
        }
        try (Quiesce q = scheduler.quiesce()) {
            long position = drained(b);
            b.disableByOperator();
            log.setCheckpoint("backend-" + backendName, position);
            log.removeCheckpoint(AppliedRecords.checkpointName(b)); // replay from its own checkpoint resets the record
            states.disabledAt(b, position);
        }
    }

    /** With writes quiesced: waits until the backend has run everything queued and the log holds it all. */
    private long drained(Backend b) throws SQLException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (!b.caughtUp(Set.of(LockManager.ALL))) {
            if (System.nanoTime() > deadline) {
                throw new SQLException("backend " + b.name() + " did not finish its queued writes",
                        SqlState.QUERY_CANCELED.code());
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted", SqlState.OPERATION_CANCELED.code(), e);
            }
        }
        return durableEnd();
    }

    /**
     * With writes quiesced: the log's last durable position once everything handed to it is
     * durable or refused. Positions the log refused are above it and nowhere (their units were
     * rolled back everywhere), and they are handed out again after a restart: no checkpoint or
     * state may name one, or a replay from there would skip the entries written in their place.
     */
    private long durableEnd() {
        logWriter.awaitAppended();
        return log.lastPosition();
    }

    /**
     * Dumps a backend. An enabled backend is dumped from a snapshot taken with writes paused for
     * an instant, so it keeps serving; a disabled one must have a checkpoint.
     */
    public DumpInfo backup(String backendName, Path dumpFile, String format, Progress progress) throws SQLException {
        requireLog("take a dump");
        progress = progress == null ? Progress.NONE : progress;
        Backend b = backends.named(backendName);
        Backuper backuper = backuper(format);
        Connection c = b.connection(b.config().credentials());
        Quiesce paused = null;
        try {
            long position;
            if (b.isEnabled()) {
                paused = scheduler.quiesce();
                position = drained(b);
                if (b.engine().holdsReadSnapshots()) {
                    Snapshots.begin(c, b.dialect());
                    paused.close(); // the snapshot keeps the dump consistent while writes go on
                    paused = null;
                }
                // otherwise (another controller) writes stay paused until the dump is written
            } else {
                Long checkpoint = states.checkpointOf(backendName).orElse(null);
                if (checkpoint == null || b.state() != BackendState.DISABLED) {
                    throw new SQLException("backend " + backendName + " is " + b.state()
                            + " without a checkpoint: its data cannot be placed in the log",
                            SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
                }
                position = checkpoint;
                c.setAutoCommit(false);
            }
            String checkpointName = "dump-" + dumpFile.getFileName();
            if (java.nio.file.Files.exists(dumpFile)) { // its checkpoint is that dump's: never move it
                throw new SQLException("dump " + dumpFile + " already exists", SqlState.DUPLICATE_OBJECT.code());
            }
            log.setCheckpoint(checkpointName, position);
            boolean written = false;
            try {
                DumpInfo info = backuper.backup(c, dumpFile, checkpointName, position, progress);
                written = true;
                return info;
            } finally {
                if (!written) {
                    log.removeCheckpoint(checkpointName); // no dump: nothing to keep the log for
                }
            }
        } catch (DumpException e) {
            throw new SQLException("dump of backend " + backendName + " failed: " + e.getMessage(),
                    SqlState.IO_ERROR.code(), e);
        } finally {
            if (paused != null) {
                paused.close();
            }
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the pool resets it
            }
            c.close();
        }
    }

    /**
     * Under partial replication, where no backend holds every table: dumps the union of the
     * enabled backends in the portable format, each table from the first enabled backend holding
     * it, all of them read from snapshots begun with writes paused at one log position (kept paused
     * until the dump is written if an engine holds no read snapshots). Returns that position.
     */
    public long dumpUnion(Path dumpFile) throws SQLException {
        requireLog("take a dump");
        List<Backend> enabled = backends.enabled();
        Map<Backend, Set<String>> parts = new LinkedHashMap<>();
        List<Connection> open = new ArrayList<>();
        Quiesce paused = scheduler.quiesce();
        try {
            Set<String> missing = new TreeSet<>();
            backends.all().forEach(b -> missing.addAll(schema.tablesOf(b)));
            long position = -1;
            boolean snapshots = true;
            for (Backend b : enabled) {
                Set<String> from = new TreeSet<>(schema.tablesOf(b));
                from.retainAll(missing);
                if (from.isEmpty() && !parts.isEmpty()) {
                    continue;
                }
                missing.removeAll(from);
                position = drained(b);
                Connection c = b.connection(b.config().credentials());
                open.add(c);
                if (b.engine().holdsReadSnapshots()) {
                    Snapshots.begin(c, b.dialect());
                } else {
                    snapshots = false;
                    c.setAutoCommit(false);
                }
                parts.put(b, from);
            }
            if (parts.isEmpty() || !missing.isEmpty()) {
                throw new SQLException("virtual database " + name + " cannot dump tables " + missing + ": no enabled"
                        + " backend holds them", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
            }
            if (snapshots) {
                paused.close(); // the snapshots keep the dump consistent while writes go on
                paused = null;
            }
            List<PortableBackuper.Part> sources = new ArrayList<>();
            int i = 0;
            for (Set<String> tables : parts.values()) {
                sources.add(new PortableBackuper.Part(open.get(i++), tables));
            }
            new PortableBackuper().backupUnion(sources, dumpFile, "group-dump", position, Progress.NONE);
            return position;
        } catch (DumpException e) {
            throw new SQLException("dump of virtual database " + name + " failed: " + e.getMessage(),
                    SqlState.IO_ERROR.code(), e);
        } finally {
            if (paused != null) {
                paused.close();
            }
            for (Connection c : open) {
                try (c) {
                    c.rollback();
                } catch (SQLException ignored) {
                    // the pool resets it
                }
            }
        }
    }

    /**
     * Restores a dump onto a disabled backend; {@link #enableBackend} then replays from the dump's
     * checkpoint. Refuses a backend whose tables hold data unless forced.
     */
    public DumpInfo restore(String backendName, Path dumpFile, boolean force, Progress progress) throws SQLException {
        requireLog("restore a dump");
        progress = progress == null ? Progress.NONE : progress;
        Backend b = backends.named(backendName);
        if (b.state() != BackendState.DISABLED) {
            throw new SQLException("backend " + backendName + " is " + b.state() + ": disable it first",
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        b.recoveryState(BackendState.RESTORING);
        try {
            DumpInfo info;
            try {
                info = Backupers.verify(dumpFile, progress); // a damaged dump changes nothing
            } catch (DumpException e) {
                throw new SQLException("restore onto backend " + backendName + " failed: " + e.getMessage(),
                        SqlState.IO_ERROR.code(), e);
            }
            Backuper backuper = backuper(info.format());
            long checkpoint = info.checkpointPosition();
            requireCheckpointInLog(backendName, dumpFile, info);
            String refused;
            try (Connection c = b.connection(b.config().credentials())) {
                refused = backuper.refusal(info, c, force); // before anything changes: a refusal keeps its checkpoint
            }
            if (refused != null) {
                throw new SQLException("restore onto backend " + backendName + " refused: " + refused,
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
            }
            // from here its data is the dump's only once its record says so (a crash leaves this state, and
            // the next start reads its record); until then it has no checkpoint to replay from
            states.restoring(b, checkpoint);
            boolean recorded = applied.recordsApplied(b);
            try {
                if (recorded) {
                    applied.clear(b); // its old record no longer describes its data
                }
                try (Connection c = b.connection(b.config().credentials())) {
                    backuper.restore(dumpFile, c, force, progress);
                }
                if (recorded) {
                    applied.reset(b, checkpoint); // its data is now the dump's
                }
                log.setCheckpoint("backend-" + backendName, checkpoint); // purge must keep what it needs
                states.disabledAt(b, checkpoint);
                return info;
            } catch (DumpException e) {
                states.failed(b); // its data may be neither what it was nor the dump: restore again
                throw new SQLException("restore onto backend " + backendName + " failed: " + e.getMessage(),
                        SqlState.IO_ERROR.code(), e);
            } catch (SQLException | RuntimeException e) {
                states.failed(b);
                throw e;
            }
        } finally {
            b.recoveryState(BackendState.DISABLED);
        }
    }

    /**
     * A dump restores a backend only from a point this log can replay from: its checkpoint, which the
     * dump's backup put in the log, is still there at the dump's position. Checked before anything
     * changes. Without it a dump of another virtual database (its checkpoint past this log's end, or
     * not there at all) was restored and enabled with that database's rows, and an archived dump
     * whose entries were purged replaced the backend's data before the restore failed.
     */
    private void requireCheckpointInLog(String backendName, Path dumpFile, DumpInfo info) throws SQLException {
        Optional<Long> inLog = log.checkpoint(info.checkpointName());
        if (inLog.isEmpty() || inLog.get() != info.checkpointPosition()) {
            throw new SQLException("refusing to restore " + dumpFile.getFileName() + " onto backend " + backendName
                    + ": its checkpoint '" + info.checkpointName() + "' at " + info.checkpointPosition() + " is not in the"
                    + " recovery log of virtual database " + name + (inLog.isPresent() ? " (there it is at " + inLog.get()
                    + ")" : "") + " - a dump of another virtual database, or one whose checkpoint was deleted with it"
                    + " (its log entries may be purged) - so the log could not bring the backend up to date from it;"
                    + " take a new dump (backup) and restore that. Nothing was changed",
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
    }

    private static Backuper backuper(String format) throws SQLException {
        try {
            return Backupers.forFormat(format == null ? PortableBackuper.FORMAT : format);
        } catch (DumpException e) {
            throw new SQLException(e.getMessage(), SqlState.INVALID_PARAMETER_VALUE.code(), e);
        }
    }

    private void requireLog(String what) throws SQLException {
        if (log == null) {
            throw new SQLException("virtual database " + name + " has no recovery log: cannot " + what,
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
    }

    /** Stops the checkpoint schedule (before the backends close). */
    public void stopSchedule() {
        if (schedule != null) {
            schedule.stop();
        }
    }

    /**
     * At shutdown, with the backends closed: those in service with nothing pending are in sync
     * with the log's durable end (they may be enabled at the next start); then the log closes. If
     * the log could not write everything it owes (its disk is still full), the backends stay
     * "enabled" in it, so the next start checks each against the log by its own record, as after
     * a crash.
     */
    public void closeLog() {
        if (log == null) {
            return;
        }
        try {
            if (log.settle()) {
                long last = log.lastPosition(); // never a position the log refused
                for (Backend b : backends.all()) {
                    if (b.isEnabled() && b.pending() == 0) {
                        states.synced(b, last);
                    }
                }
            } else {
                LOG.warn("virtual database {}: the recovery log still refuses writes at shutdown; the backends will"
                        + " be checked against it at the next start", name);
            }
        } catch (RuntimeException e) {
            LOG.warn("virtual database {}: backend states not saved at shutdown ({}); the backends will be checked"
                    + " against the recovery log at the next start", name, e.getMessage());
        } finally {
            log.close();
        }
    }
}
