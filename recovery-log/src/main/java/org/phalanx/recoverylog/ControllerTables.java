package org.phalanx.recoverylog;

import java.util.Locale;

/**
 * Tables the controller keeps on a backend for itself. They are not the application's: schema
 * learning, metadata answers to clients and dumps leave them out.
 */
public final class ControllerTables {
    /**
     * One row per log position a backend has applied, written in the same backend transaction as
     * the work itself (see the request manager's {@code AppliedPositions}).
     */
    public static final String APPLIED = "phalanx_applied";

    private ControllerTables() {
    }

    /** Whether a table name (any case) is one of the controller's own. */
    public static boolean isControllerTable(String name) {
        return name != null && name.toLowerCase(Locale.ROOT).equals(APPLIED);
    }
}
