package org.phalanx.controller;

import java.util.Locale;

/**
 * How a controller or a virtual database shuts down (the operator chooses, as in Sequoia).
 */
public enum ShutdownMode {
    /** Refuse new clients, wait (without limit) until every client has disconnected by itself, then stop. */
    WAIT,
    /** Refuse new clients, let requests in flight finish (bounded), roll back open transactions, stop. */
    SAFE,
    /** Stop now: requests in flight fail, open transactions roll back. */
    FORCE;

    /** Parses wait, safe or force (any case). */
    public static ShutdownMode parse(String mode) {
        if (mode != null) {
            for (ShutdownMode m : values()) {
                if (m.name().equalsIgnoreCase(mode.trim())) {
                    return m;
                }
            }
        }
        throw new IllegalArgumentException("shutdown mode must be wait, safe or force, not '" + mode + "'");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
