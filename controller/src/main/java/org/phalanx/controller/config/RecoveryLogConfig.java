package org.phalanx.controller.config;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The recovery log of a virtual database as configured ({@code <recoveryLog>}). Nothing is opened
 * when the file is read: the log is opened when the virtual database starts.
 *
 * @param directory             the folder of a file log (absolute), or null for a JDBC log
 * @param url                   the JDBC URL of a JDBC log (a relative SQLite path already absolute), or null
 * @param user                  login for the JDBC log database (may be null)
 * @param password              its password (may be null)
 * @param tablePrefix           prefix of the JDBC log's tables (a plain identifier or empty)
 * @param enableSyncedOnStart   re-enable at start the backends that were in sync at the last clean stop
 * @param checkpointEvery       take a checkpoint this often (null: never on a timer)
 * @param checkpointEveryWrites take a checkpoint after this many logged entries (0: never)
 * @param dumpDir               where dumps are written and looked for (absolute)
 * @param autoEnable            how often to try to enable again the backends that left service to be
 *                              caught up and connect again (null: only an operator enables them)
 * @param location              where the element is written, for messages
 */
public record RecoveryLogConfig(Path directory, String url, String user, String password, String tablePrefix,
                                boolean enableSyncedOnStart, Duration checkpointEvery, long checkpointEveryWrites,
                                Path dumpDir, Duration autoEnable, ConfigLocation location) {

    public static final String DEFAULT_TABLE_PREFIX = "phalanx_";
    public static final String DEFAULT_DUMP_DIR = "dumps";

    public boolean isFileLog() {
        return directory != null;
    }

    /** What the log is, for messages: "file log /var/lib/phalanx/log" or "JDBC log jdbc:... (tables phalanx_*)". */
    public String describe() {
        return isFileLog() ? "file log " + directory : "JDBC log " + url + " (tables " + tablePrefix + "*)";
    }

    @Override
    public String toString() {
        return "RecoveryLogConfig[" + describe() + (user == null ? "" : ", user " + user)
                + (password == null ? "" : ", password ***") + ", enableSyncedOnStart " + enableSyncedOnStart
                + ", checkpointEvery " + checkpointEvery + ", checkpointEveryWrites " + checkpointEveryWrites
                + ", dumpDir " + dumpDir + ", autoEnable " + autoEnable + (location == null ? "" : ", at " + location) + "]";
    }
}
