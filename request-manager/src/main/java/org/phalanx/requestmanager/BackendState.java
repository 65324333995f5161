package org.phalanx.requestmanager;

/** Where a backend stands. Recovery (issue 6) adds the states in between. */
public enum BackendState {
    /** Serving reads and applying writes. */
    ENABLED,
    /** Taken out of service (by failure or by an operator); it receives nothing. */
    DISABLED
}
