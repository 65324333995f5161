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
    /**
     * The record a controller above keeps, in a nested controller's virtual database, of the log
     * positions that virtual database applied: {@code phalanx_upper_applied_<vdb>}. It is written
     * by the controller above as an ordinary client of the sub-controller, in the same transaction
     * as each unit, so the sub logs and replicates it with the unit: for the sub it is data (its
     * dumps carry it to a restored backend), hidden from metadata answers like the other tables
     * here, so the controller above never learns it as one of the application's.
     */
    public static final String UPPER_APPLIED_PREFIX = "phalanx_upper_applied_";

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
        return lower.equals(APPLIED) || lower.startsWith(RESTORE_PREFIX) || lower.startsWith(UPPER_APPLIED_PREFIX);
    }

    /**
     * Whether dumps leave a table out: the controller's own bookkeeping, but not the record of a
     * controller above ({@link #UPPER_APPLIED_PREFIX}), which must be restored with the data it
     * describes (a backend of the sub restored without it would refuse the next unit's record).
     */
    public static boolean isLeftOutOfDumps(String name) {
        return isControllerTable(name) && !name.toLowerCase(Locale.ROOT).startsWith(UPPER_APPLIED_PREFIX);
    }

    /**
     * The name of the record the controller above keeps in the nested controller's virtual
     * database that {@code phalanxUrl} ({@code jdbc:phalanx://hosts/vdb?...}) reaches: named after
     * that virtual database, so in a deeper tree it differs from the record that virtual database
     * keeps, in turn, on its own controller backends (which their backends then hold beside it).
     */
    public static String upperApplied(String phalanxUrl) {
        String path = phalanxUrl.substring(phalanxUrl.indexOf('/', phalanxUrl.indexOf("//") + 2) + 1);
        int query = path.indexOf('?');
        String vdb = (query < 0 ? path : path.substring(0, query)).toLowerCase(Locale.ROOT);
        return UPPER_APPLIED_PREFIX + vdb.replaceAll("[^a-z0-9_]", "_");
    }
}
