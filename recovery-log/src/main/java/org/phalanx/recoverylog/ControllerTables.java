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
    /**
     * Tables a restore onto MariaDB builds before swapping them in, or moves aside (see the dumps'
     * {@code StagedReplacement}); any left by a killed restore are removed by the next one.
     */
    public static final String RESTORE_PREFIX = "phalanx_restore_";

    private ControllerTables() {
    }

    /** Whether a table name (any case) is one of the controller's own. */
    public static boolean isControllerTable(String name) {
        if (name == null) {
            return false;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.equals(APPLIED) || lower.startsWith(RESTORE_PREFIX);
    }
}
