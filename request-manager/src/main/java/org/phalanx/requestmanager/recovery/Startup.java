package org.phalanx.requestmanager.recovery;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.Backends;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.routing.SchemaLearner;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.scheduler.Scheduler;

/**
 * Brings a virtual database's backends into service at start, from the states the recovery log
 * kept: a new virtual database enables them all; a backend that stopped in sync at the log's end
 * is enabled; one the controller left enabled when it crashed, or whose saved position is not the
 * log's end, is checked against the log by the positions it has itself applied
 * ({@link CrashRecovery}: its {@code phalanx_applied} record is the truth, the saved state only a
 * hint). An operation the stop cut short is judged by the backend's record too: an enable is
 * resumed where the record says it got to; a restore counts only if the record shows it complete
 * (else the backend is failed: restore again). The others stay disabled with the reason logged.
 */
final class Startup {
    private static final Logger LOG = LogManager.getLogger(Startup.class);
    private static final String UNCLEAN_STOP = "the controller did not stop cleanly (a crash, or a recovery log"
            + " still refusing writes at the stop)";
    /**
     * A backend that stopped in sync with the log's end is enabled by what its own record of applied
     * positions says, not by the state saved at the stop: its database may have been replaced while the
     * controller was down (an older copy put back was enabled and served stale rows; an empty one).
     */
    private static final String STOPPED_IN_SYNC = "it stopped in sync with the log's end";

    private final String name;
    private final Backends backends;
    /** Null without a recovery log. */
    private final RecoveryLog log;
    private final RecoveryConfig config;
    private final LogWriter logWriter;
    private final Scheduler scheduler;
    private final AppliedRecords applied;
    private final BackendStates states;
    private final SchemaView schema;
    private final BackendAdministration admin;

    Startup(String name, Backends backends, RecoveryLog log, RecoveryConfig config, LogWriter logWriter,
            Scheduler scheduler, AppliedRecords applied, BackendStates states, SchemaView schema,
            BackendAdministration admin) {
        this.name = name;
        this.backends = backends;
        this.log = log;
        this.config = config;
        this.logWriter = logWriter;
        this.scheduler = scheduler;
        this.applied = applied;
        this.states = states;
        this.schema = schema;
        this.admin = admin;
    }

    /**
     * Connects to every backend and learns its tables; those that answer are enabled, the others
     * stay disabled (logged).
     *
     * @throws SQLException when a table declared in the configuration is missing from its backend
     */
    void start() throws SQLException {
        List<String> contradictions = new ArrayList<>();
        Map<String, String> stored = states.stored();
        long last = log == null ? 0 : log.lastPosition();
        List<Backend> behind = new ArrayList<>();
        List<Backend> resume = new ArrayList<>(); // an enable was under way when the controller stopped
        Map<Backend, String> toCheck = new LinkedHashMap<>(); // to why its saved state is not enough
        Set<Backend> checkedStayDisabled = new HashSet<>();
        for (Backend b : backends.all()) {
            String state = stored.get(BackendStates.key(b));
            Long synced = state != null && state.startsWith(BackendStates.SYNCED_AT)
                    ? Long.parseLong(state.substring(BackendStates.SYNCED_AT.length())) : null;
            boolean enableNow;
            String reason = state;
            if (log == null || (state == null && last == 0)) {
                enableNow = true; // no log, or a new virtual database
            } else if (state == null) {
                // added to a virtual database with history: its data must come from a dump first
                enableNow = false;
                reason = "new backend: restore a dump onto it";
            } else if (state.equals(BackendStates.ENABLED)) {
                toCheck.put(b, UNCLEAN_STOP); // checked against the log below
                continue;
            } else if (state.startsWith(BackendStates.REPLAYING_AT)) {
                long from = Long.parseLong(state.substring(BackendStates.REPLAYING_AT.length()));
                schema.learn(b, SchemaLearner.declaredTables(b));
                if (applied.recordsApplied(b)) {
                    // its record says how far the replay got: the enable is resumed from there below
                    states.checkpointAt(b, from);
                    resume.add(b);
                    LOG.warn("virtual database {}: backend {} was being enabled (replayed from log position {}) when"
                            + " the controller stopped; the enable is resumed where its record of applied positions"
                            + " says it got to", name, b.name(), from);
                } else {
                    states.failed(b);
                    LOG.error("virtual database {}: backend {} stays disabled (failed): it was being enabled (replayed"
                            + " from log position {}) when the controller stopped, and it keeps no record of what it"
                            + " applied. Restore a dump onto it, then enable it", name, b.name(), from);
                }
                continue;
            } else if (state.startsWith(BackendStates.RESTORING_AT)) {
                long checkpoint = Long.parseLong(state.substring(BackendStates.RESTORING_AT.length()));
                schema.learn(b, SchemaLearner.declaredTables(b));
                if (applied.recordsApplied(b) && applied.restoredTo(b, checkpoint)) {
                    log.setCheckpoint("backend-" + b.name(), checkpoint);
                    states.disabledAt(b, checkpoint);
                    LOG.warn("virtual database {}: backend {} stays disabled: a dump (checkpoint at log position {})"
                            + " was being restored onto it when the controller stopped, and its record shows the restore"
                            + " complete; enableBackend replays from there", name, b.name(), checkpoint);
                } else {
                    states.failed(b);
                    LOG.error("virtual database {}: backend {} stays disabled (failed): a dump was being restored onto"
                            + " it when the controller stopped, and its record does not show the restore complete, so"
                            + " its data is unknown. Restore the dump again, then enable it", name, b.name());
                }
                continue;
            } else if (synced != null && synced == last && !(config.enableSyncedOnStart() && applied.recordsApplied(b))) {
                states.checkpointAt(b, synced);
                enableNow = config.enableSyncedOnStart();
            } else if (synced != null && applied.recordsApplied(b)
                    && (config.enableSyncedOnStart() || synced > last)) {
                // what it has applied decides: its database may have changed since the stop, and a saved
                // position that is not the log's end (one beyond it would skip what is written there next)
                toCheck.put(b, synced == last ? STOPPED_IN_SYNC
                        : "it stopped in sync at log position " + synced + ", but the log ends at " + last);
                if (!config.enableSyncedOnStart()) {
                    checkedStayDisabled.add(b);
                }
                continue;
            } else if (synced != null && synced < last) {
                states.checkpointAt(b, synced);
                enableNow = false;
                if (config.enableSyncedOnStart()) {
                    behind.add(b); // stopped behind the log, keeping no record: replayed from there below
                }
            } else if (synced != null) {
                enableNow = false;
                reason = state + ", beyond the log's end (" + last + "), and it keeps no record of the positions it"
                        + " applied: restore a dump onto it";
            } else {
                if (state.startsWith(BackendStates.DISABLED_AT)) {
                    long checkpoint = Long.parseLong(state.substring(BackendStates.DISABLED_AT.length()));
                    states.checkpointAt(b, checkpoint);
                    reason = "disabled before the restart, at log position " + checkpoint + ": enable it to catch up";
                }
                enableNow = false;
            }
            if (!enableNow) {
                schema.learn(b, SchemaLearner.declaredTables(b));
                b.stayedDisabled(reason);
                LOG.warn("virtual database {}: backend {} stays disabled ({})", name, b.name(), reason);
                continue;
            }
            try {
                if (applied.recordsApplied(b)) {
                    applied.reset(b, last); // it holds exactly the log up to its end
                }
                b.enable();
                SchemaLearner.learn(b, schema, contradictions);
                states.noCheckpoint(b);
                states.enabled(b);
            } catch (SQLException e) {
                LOG.error("virtual database {}: backend {} could not be enabled: {}", name, b.name(), e.getMessage());
                schema.learn(b, SchemaLearner.declaredTables(b));
                if (synced != null) {
                    states.disabledAt(b, synced); // still replayable from where it stopped
                } else if (log != null) {
                    states.failed(b);
                }
            }
        }
        if (!toCheck.isEmpty()) {
            checkAgainstLog(toCheck, checkedStayDisabled, last, contradictions);
        }
        if (!contradictions.isEmpty()) {
            throw new SQLException(String.join("\n", contradictions), SqlState.INTERNAL_ERROR.code());
        }
        if (log != null) {
            admin.startSchedule(last);
        }
        for (Backend b : behind) {
            try {
                admin.enableBackend(b.name());
            } catch (SQLException e) {
                LOG.error("virtual database {}: backend {} could not catch up: {}", name, b.name(), e.getMessage());
            }
        }
        for (Backend b : resume) {
            try {
                admin.enableBackend(b.name());
                LOG.info("virtual database {}: backend {} enabled: the enable the stop cut short is complete", name,
                        b.name());
            } catch (SQLException e) {
                LOG.error("virtual database {}: backend {} stays disabled: the enable the stop cut short could not be"
                        + " completed ({}); enableBackend resumes it", name, b.name(), e.getMessage());
            }
        }
        if (backends.enabled().isEmpty()) {
            LOG.error("virtual database {} has no enabled backend: every request will fail", name);
        }
    }

    /**
     * The backends whose saved state does not say what they hold (the controller crashed, or the
     * saved position is not the log's end) get by replay exactly the logged units they lack, as
     * their own records of applied positions show (see {@link CrashRecovery}), and are enabled
     * (or left disabled at the log's end, when {@code stayDisabled}); one that cannot be proven to
     * hold the logged state stays disabled as failed.
     */
    private void checkAgainstLog(Map<Backend, String> toCheck, Set<Backend> stayDisabled, long last,
                                 List<String> contradictions) throws SQLException {
        toCheck.forEach((b, why) -> (STOPPED_IN_SYNC.equals(why) ? LOG.atInfo() : LOG.atWarn()).log("virtual database {}:"
                + " {}; checking backend {} against the recovery log (last position {}) by the positions it has applied",
                name, why, b.name(), last));
        List<Backend> checked = new ArrayList<>(toCheck.keySet());
        for (Backend b : checked) {
            b.recoveryState(BackendState.REPLAYING);
        }
        Map<Backend, CrashRecovery.Outcome> outcomes = CrashRecovery.recover(checked, log, last,
                new CrashRecovery.LogAppender() {
                    @Override
                    public void failed(long position) {
                        logWriter.failed(position, null);
                    }

                    @Override
                    public void rolledBack(long transactionId, String login, Set<String> backendNames)
                            throws SQLException {
                        CompletableFuture<?>[] f = new CompletableFuture<?>[1];
                        scheduler.order(position -> f[0] = logWriter.append(LogEntry.rollback(position, transactionId,
                                login, backendNames)));
                        LogWriter.awaitDurable(f[0]);
                    }
                });
        for (Backend b : checked) {
            b.recoveryState(BackendState.DISABLED);
            String at = UNCLEAN_STOP.equals(toCheck.get(b)) ? "after the crash" : "at start";
            CrashRecovery.Outcome outcome = outcomes.get(b);
            if (outcome instanceof CrashRecovery.Outcome.Recovered r) {
                try {
                    if (stayDisabled.contains(b)) {
                        schema.learn(b, SchemaLearner.declaredTables(b));
                        states.disabledAt(b, log.lastPosition()); // it now holds exactly the log: replayable from its end
                        LOG.info("virtual database {}: backend {} holds the logged state ({} missing units replayed);"
                                + " it stays disabled (enableSyncedOnStart=\"false\")", name, b.name(), r.replayed());
                        continue;
                    }
                    if (STOPPED_IN_SYNC.equals(toCheck.get(b))) {
                        applied.reset(b, last); // it holds exactly the log up to its end: the record starts there
                    }
                    b.enable();
                    SchemaLearner.learn(b, schema, contradictions);
                    states.enabled(b);
                    log.removeCheckpoint("backend-" + b.name()); // of a disable the crash cut short, if any
                    LOG.info("virtual database {}: backend {} recovered {} ({} missing units replayed)",
                            name, b.name(), at, r.replayed());
                    continue;
                } catch (SQLException e) {
                    outcome = new CrashRecovery.Outcome.Failed("it could not be enabled: " + e.getMessage());
                }
            }
            schema.learn(b, SchemaLearner.declaredTables(b));
            Long floor = log.checkpoints().get(AppliedRecords.checkpointName(b));
            if (outcome instanceof CrashRecovery.Outcome.Unreachable u && floor != null) {
                // what it holds is what its record says, once it answers: replayable from its floor (an enable
                // reads the record and replays only what it lacks), as a backend disabled there would be
                log.setCheckpoint("backend-" + b.name(), floor);
                states.disabledAt(b, floor);
                b.stayedDisabled("did not answer " + at + " (" + u.reason() + "): enable it once it answers");
                LOG.error("virtual database {}: backend {} did not answer {} ({}); it stays disabled. Once it"
                        + " answers, enableBackend replays what its record of applied positions says it lacks (from"
                        + " log position {})", name, b.name(), at, u.reason(), floor);
                continue;
            }
            String reason = outcome instanceof CrashRecovery.Outcome.Unreachable u ? u.reason()
                    : ((CrashRecovery.Outcome.Failed) outcome).reason();
            states.failed(b);
            b.stayedDisabled("failed " + at + ": " + reason + " - restore a dump onto it");
            LOG.error("virtual database {}: backend {} stays disabled (failed) {}: {}. Restore a dump of"
                    + " an up-to-date backend onto it, then enable it (docs/operations.md, 'Replacing a failed backend')",
                    name, b.name(), at, reason);
        }
    }
}
