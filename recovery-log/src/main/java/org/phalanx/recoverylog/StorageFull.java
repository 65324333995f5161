package org.phalanx.recoverylog;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Tells a failure for want of space from other I/O failures, so that the client is told "disk
 * full" (and the operator knows freeing space is the cure). Java reports ENOSPC and EDQUOT only
 * through the message of an {@link IOException}; databases through their SQLState or message.
 */
final class StorageFull {
    private static final String[] MESSAGES = {
        "no space left on device",         // ENOSPC (Linux, macOS)
        "disk quota exceeded",             // EDQUOT
        "not enough space on the disk",    // Windows ERROR_DISK_FULL
        "database or disk is full",        // SQLite SQLITE_FULL
    };
    /** PostgreSQL's disk_full. */
    private static final String DISK_FULL_STATE = "53100";
    /** MariaDB/MySQL: ER_DISK_FULL, ER_RECORD_FILE_FULL (a table full). */
    private static final int[] MARIADB_CODES = {1021, 1114};

    private StorageFull() {
    }

    /** Whether {@code failure}, or one of its causes, says the storage had no room. */
    static boolean causedBy(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof LogFullException) {
                return true;
            }
            if (t instanceof SQLException e && (DISK_FULL_STATE.equals(e.getSQLState()) || isMariaDbFull(e))) {
                return true;
            }
            if ((t instanceof IOException || t instanceof SQLException) && t.getMessage() != null) {
                String message = t.getMessage().toLowerCase(Locale.ROOT);
                for (String m : MESSAGES) {
                    if (message.contains(m)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean isMariaDbFull(SQLException e) {
        for (int code : MARIADB_CODES) {
            if (e.getErrorCode() == code) {
                return true;
            }
        }
        return false;
    }
}
