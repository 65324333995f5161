package org.phalanx.requestmanager.api;

/** Where a backend stands. A backend being backed up stays ENABLED (dumps are taken from a snapshot). */
public enum BackendState {
    /** Serving reads and applying writes. */
    ENABLED,
    /** Taken out of service (by failure or by an operator); it receives nothing. */
    DISABLED,
    /** Replaying the recovery log to catch up before it is enabled. */
    REPLAYING,
    /** A dump is being restored onto it. */
    RESTORING
}
