package org.phalanx.requestmanager;

import org.phalanx.recoverylog.RecoveryLog;

/**
 * The recovery log of a virtual database.
 *
 * @param log                 the store (file or JDBC), opened by whoever read the configuration
 * @param enableSyncedOnStart re-enable at start the backends that were in sync when the
 *                            controller last stopped
 */
public record RecoveryConfig(RecoveryLog log, boolean enableSyncedOnStart) {
}
