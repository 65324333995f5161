package org.phalanx.requestmanager.recovery;

import org.phalanx.recoverylog.RecoveryLog;

/**
 * Backends a member of a group declares but another member holds (docs/distribution.md, Taking over
 * a member's backends): saved as "elsewhere@holder", which start-up and a follower's catch-up leave
 * alone, never connecting to them, until this member takes one over
 * ({@link BackendAdministration#adoptBackend}).
 */
public final class BackendHolding {
    private BackendHolding() {
    }

    /** Saves that {@code holder} holds the backend: this controller must not touch it. Returns whether that is news. */
    public static boolean heldElsewhere(RecoveryLog log, String backendName, String holder) {
        String state = BackendStates.ELSEWHERE_AT + holder;
        if (state.equals(log.states().get(BackendStates.key(backendName)))) {
            return false;
        }
        log.putState(BackendStates.key(backendName), state);
        return true;
    }

    /** Whether the backend is saved as held by another member. */
    public static boolean isHeldElsewhere(RecoveryLog log, String backendName) {
        String state = log.states().get(BackendStates.key(backendName));
        return state != null && state.startsWith(BackendStates.ELSEWHERE_AT);
    }

    /**
     * Saves that this controller holds the backend again (given back to it), if it was saved as held
     * elsewhere: as "enabled", which start-up and a follower's catch-up check against the log by the
     * backend's own record of applied positions, as after a crash. Returns whether that is news.
     */
    public static boolean heldHere(RecoveryLog log, String backendName) {
        if (!isHeldElsewhere(log, backendName)) {
            return false;
        }
        log.putState(BackendStates.key(backendName), BackendStates.ENABLED);
        return true;
    }
}
