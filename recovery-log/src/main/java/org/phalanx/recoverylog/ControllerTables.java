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
     * Where the controller keeps its tables on PostgreSQL (a schema in the backend's database) and
     * MariaDB (a database on the backend's server): outside the application's schema.
     */
    public static final String SCHEMA = "phalanx";
    /**
     * Tables a restore onto MariaDB builds before swapping them in, or moves aside (see the dumps'
     * {@code StagedReplacement}); any left by a killed restore are removed by the next one.
     */
    public static final String RESTORE_PREFIX = "phalanx_restore_";

    private ControllerTables() {
    }

    /** Whether a schema (PostgreSQL) or database (MariaDB) name is the controller's own. */
    public static boolean isControllerSchema(String name) {
        return SCHEMA.equalsIgnoreCase(name);
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
