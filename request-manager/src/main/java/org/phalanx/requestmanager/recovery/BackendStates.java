package org.phalanx.requestmanager.recovery;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.backend.Backend;

/**
 * Each backend's state as the recovery log keeps it across restarts ("enabled", "synced@N",
 * "disabled@N", "replaying@N", "restoring@N", "failed"), and, for disabled backends whose data is
 * exactly the log up to a position, that checkpoint (they can be replayed from it). A state
 * saved while an operation runs ("replaying@N", "restoring@N") is what a crash leaves of it: the
 * next start derives the backend's state from its own record of applied positions.
 */
final class BackendStates {
    static final String ENABLED = "enabled";
    static final String SYNCED_AT = "synced@";
    static final String DISABLED_AT = "disabled@";
    /** An enable from checkpoint N is under way. */
    static final String REPLAYING_AT = "replaying@";
    /** A dump of checkpoint N is being restored onto it: its data is the dump's once its record says so. */
    static final String RESTORING_AT = "restoring@";
    /** Declared here, held by another member of the group ({@link BackendHolding}). */
    static final String ELSEWHERE_AT = "elsewhere@";
    private static final String FAILED = "failed";

    /** Null without a recovery log: nothing is kept. */
    private final RecoveryLog log;
    private final Map<String, Long> checkpointOf = new ConcurrentHashMap<>();

    BackendStates(RecoveryLog log) {
        this.log = log;
    }

    /** The states stored when the controller last ran, by {@link #key(Backend)}. */
    Map<String, String> stored() {
        return log == null ? Map.of() : log.states();
    }

    static String key(Backend b) {
        return key(b.name());
    }

    static String key(String backendName) {
        return "backend." + backendName;
    }

    Optional<Long> checkpointOf(String backendName) {
        return Optional.ofNullable(checkpointOf.get(backendName));
    }

    void checkpointAt(Backend b, long position) {
        checkpointOf.put(b.name(), position);
    }

    void noCheckpoint(Backend b) {
        checkpointOf.remove(b.name());
    }

    void enabled(Backend b) {
        save(b, ENABLED);
    }

    void synced(Backend b, long position) {
        save(b, SYNCED_AT + position);
    }

    /** Disabled with its data exactly the log up to {@code position}: replayable from there. */
    void disabledAt(Backend b, long position) {
        checkpointOf.put(b.name(), position);
        save(b, DISABLED_AT + position);
    }

    /** An enable replays onto it from {@code from}, its checkpoint (kept). */
    void replaying(Backend b, long from) {
        save(b, REPLAYING_AT + from);
    }

    /** A dump taken at {@code checkpoint} is being restored onto it: no checkpoint to replay from meanwhile. */
    void restoring(Backend b, long checkpoint) {
        checkpointOf.remove(b.name());
        save(b, RESTORING_AT + checkpoint);
    }

    /** Failed: only a restored dump brings it back, so its record (and the log it needs) no longer matter. */
    void failed(Backend b) {
        checkpointOf.remove(b.name());
        if (log != null) {
            save(b, FAILED);
            log.removeCheckpoint(AppliedRecords.checkpointName(b));
        }
    }

    private void save(Backend b, String state) {
        if (log != null) {
            log.putState(key(b), state);
        }
    }
}
