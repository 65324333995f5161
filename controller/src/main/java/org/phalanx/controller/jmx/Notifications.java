package org.phalanx.controller.jmx;

import javax.management.MBeanNotificationInfo;
import javax.management.Notification;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;

/**
 * The notifications a virtual database MBean emits. Their user data is open data
 * ({@link CompositeData} of strings, longs and booleans), readable by any JMX client.
 */
public final class Notifications {
    /** A backend changed state. Items: virtualDatabase, backend, from, to, reason, failure. */
    public static final String BACKEND_STATE = "phalanx.backend.state";
    /** A backend left service because it failed (sent after its {@link #BACKEND_STATE}). Same items. */
    public static final String BACKEND_FAILURE = "phalanx.backend.failure";
    /** A long operation advanced. Items: virtualDatabase, operation, done, total (-1: unknown), unit. */
    public static final String OPERATION_PROGRESS = "phalanx.operation.progress";
    /** An operator action ended. Items: virtualDatabase, operation, succeeded, result, millis. */
    public static final String OPERATION_FINISHED = "phalanx.operation.finished";

    /**
     * A verification found a table different on its replicas (one per table, on demand or scheduled).
     * Items: virtualDatabase, table, differingRows, minority (names, space separated; empty without a
     * majority), ranges and rows (the first few, one per line).
     */
    public static final String VERIFICATION_DIFFERENCE = "phalanx.verification.difference";
    /**
     * A verification ended (on demand or scheduled). Items: virtualDatabase, tables, rowsCompared,
     * differences, minority, actions (one per line), millis.
     */
    public static final String VERIFICATION_FINISHED = "phalanx.verification.finished";
    /** Lines of ranges and rows a difference notification carries at most (the report has them all). */
    static final int LINES_NOTIFIED = 20;

    private static final Items DIFFERENCE = new Items("VerificationDifference",
            new String[]{"virtualDatabase", "table", "differingRows", "minority", "ranges", "rows"},
            SimpleType.STRING, SimpleType.STRING, SimpleType.LONG, SimpleType.STRING, SimpleType.STRING,
            SimpleType.STRING);
    private static final Items VERIFIED = new Items("VerificationFinished",
            new String[]{"virtualDatabase", "tables", "rowsCompared", "differences", "minority", "actions", "millis"},
            SimpleType.STRING, SimpleType.INTEGER, SimpleType.LONG, SimpleType.LONG, SimpleType.STRING,
            SimpleType.STRING, SimpleType.LONG);
    private static final Items BACKEND = new Items("BackendStateChange",
            new String[]{"virtualDatabase", "backend", "from", "to", "reason", "failure"},
            SimpleType.STRING, SimpleType.STRING, SimpleType.STRING, SimpleType.STRING, SimpleType.STRING,
            SimpleType.BOOLEAN);
    private static final Items PROGRESS = new Items("OperationProgress",
            new String[]{"virtualDatabase", "operation", "done", "total", "unit"},
            SimpleType.STRING, SimpleType.STRING, SimpleType.LONG, SimpleType.LONG, SimpleType.STRING);
    private static final Items FINISHED = new Items("OperationFinished",
            new String[]{"virtualDatabase", "operation", "succeeded", "result", "millis"},
            SimpleType.STRING, SimpleType.STRING, SimpleType.BOOLEAN, SimpleType.STRING, SimpleType.LONG);

    private Notifications() {
    }

    static MBeanNotificationInfo[] info() {
        return new MBeanNotificationInfo[]{
                new MBeanNotificationInfo(new String[]{BACKEND_STATE, BACKEND_FAILURE}, Notification.class.getName(),
                        "A backend changed state (phalanx.backend.failure too when it failed)"),
                new MBeanNotificationInfo(new String[]{OPERATION_PROGRESS, OPERATION_FINISHED},
                        Notification.class.getName(), "Progress and end of operator actions (backup, restore, enable...)"),
                new MBeanNotificationInfo(new String[]{VERIFICATION_DIFFERENCE, VERIFICATION_FINISHED},
                        Notification.class.getName(), "Replica verification: a table found different, a run ended")
        };
    }

    static CompositeData backendChange(String vdb, String backend, String from, String to, String reason,
                                       boolean failure) {
        return data(BACKEND, vdb, backend, from, to, reason == null ? "" : reason, failure);
    }

    static CompositeData progress(String vdb, String operation, long done, long total, String unit) {
        return data(PROGRESS, vdb, operation, done, total, unit == null ? "" : unit);
    }

    static CompositeData finished(String vdb, String operation, boolean succeeded, String result, long millis) {
        return data(FINISHED, vdb, operation, succeeded, result == null ? "" : result, millis);
    }

    static CompositeData difference(String vdb, String table, long differingRows, String minority, String ranges,
                                    String rows) {
        return data(DIFFERENCE, vdb, table, differingRows, minority, ranges, rows);
    }

    static CompositeData verified(String vdb, int tables, long rowsCompared, long differences, String minority,
                                  String actions, long millis) {
        return data(VERIFIED, vdb, tables, rowsCompared, differences, minority, actions, millis);
    }

    /** A composite type with its item names in the order values are given. */
    private record Items(CompositeType type, String[] names) {
        Items(String typeName, String[] names, OpenType<?>... types) {
            this(compositeType(typeName, names, types), names);
        }

        private static CompositeType compositeType(String typeName, String[] names, OpenType<?>[] types) {
            try {
                return new CompositeType(typeName, typeName, names, names, types);
            } catch (OpenDataException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static CompositeData data(Items items, Object... values) {
        try {
            return new CompositeDataSupport(items.type(), items.names(), values);
        } catch (OpenDataException e) {
            throw new IllegalStateException(e);
        }
    }
}
