package org.phalanx.requestmanager.config;

import java.time.Duration;
import java.util.Objects;
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

    public RecoveryConfig {
        Objects.requireNonNull(log, "log");
        if (checkpointEvery != null && (checkpointEvery.isZero() || checkpointEvery.isNegative())) {
            throw new IllegalArgumentException("checkpointEvery must be longer than 0, not " + checkpointEvery);
        }
        if (checkpointEveryWrites < 0) {
            throw new IllegalArgumentException("checkpointEveryWrites cannot be negative: " + checkpointEveryWrites);
        }
    }

    /** Checkpoints only when an operator asks for one. */
    public RecoveryConfig(RecoveryLog log, boolean enableSyncedOnStart) {
        this(log, enableSyncedOnStart, null, 0);
    }
}
