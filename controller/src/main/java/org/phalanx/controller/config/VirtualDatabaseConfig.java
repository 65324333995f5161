package org.phalanx.controller.config;

import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;

import java.nio.file.Path;
import java.util.List;

/**
 * One virtual database as configured.
 *
 * @param file        the file it was read from (absolute)
 * @param backends    in configuration order, SQLite paths already absolute
 * @param requestManager its strategies, without the recovery log (opened when the virtual database starts)
 * @param recoveryLog the recovery log to open at start, or null for none
 * @param verification the replica verification schedule, or null for none
 */
public record VirtualDatabaseConfig(String name, Path file, List<VirtualUser> users, List<BackendConfig> backends,
                                    RequestManagerConfig requestManager, RecoveryLogConfig recoveryLog,
                                    DistributionConfig distribution, VerificationSchedule verification) {

    public VirtualDatabaseConfig(String name, Path file, List<VirtualUser> users, List<BackendConfig> backends,
                                 RequestManagerConfig requestManager, RecoveryLogConfig recoveryLog,
                                 DistributionConfig distribution) {
        this(name, file, users, backends, requestManager, recoveryLog, distribution, null);
    }

    public VirtualDatabaseConfig(String name, Path file, List<VirtualUser> users, List<BackendConfig> backends,
                                 RequestManagerConfig requestManager, RecoveryLogConfig recoveryLog) {
        this(name, file, users, backends, requestManager, recoveryLog, null);
    }

    public VirtualDatabaseConfig(String name, Path file, List<VirtualUser> users, List<BackendConfig> backends,
                                 RequestManagerConfig requestManager) {
        this(name, file, users, backends, requestManager, null);
    }
}
