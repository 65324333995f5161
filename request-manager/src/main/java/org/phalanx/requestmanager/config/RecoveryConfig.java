package org.phalanx.requestmanager.config;

import java.time.Duration;
import org.phalanx.recoverylog.RecoveryLog;

/**
 * The recovery log of a virtual database.
 *
 * @param log                 the store (file or JDBC), opened by whoever read the configuration
 * @param enableSyncedOnStart re-enable at start the backends that were in sync when the
 *                            controller last stopped
 * @param checkpointEvery     take a checkpoint this often (null: never on a timer)
 * @param checkpointEveryWrites take a checkpoint after this many logged entries (0: never)
 */
public record RecoveryConfig(RecoveryLog log, boolean enableSyncedOnStart, Duration checkpointEvery,
                             long checkpointEveryWrites) {

    public RecoveryConfig(RecoveryLog log, boolean enableSyncedOnStart) {
        this(log, enableSyncedOnStart, null, 0);
    }
}
