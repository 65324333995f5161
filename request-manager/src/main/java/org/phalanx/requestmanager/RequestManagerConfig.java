package org.phalanx.requestmanager;

import java.time.Duration;
import java.time.ZoneId;

/**
 * The strategies a virtual database composes. Each is an independent choice.
 *
 * @param lockTimeout      longest a transaction waits for a scheduler lock before it is
 *                         rolled back with SQLState 40001
 * @param macroTimeZone    zone in which NOW()/CURRENT_* are evaluated when rewritten
 * @param analysisCacheSize SQL texts whose analysis is kept
 */
public record RequestManagerConfig(ReplicationLevel replication, WaitPolicy waitPolicy, BalancingPolicy balancing,
                                   LockGranularity lockGranularity, Duration lockTimeout, ZoneId macroTimeZone,
                                   int analysisCacheSize) {

    public static RequestManagerConfig defaults() {
        return new RequestManagerConfig(ReplicationLevel.RAIDB_1, WaitPolicy.FIRST, BalancingPolicy.ROUND_ROBIN,
                LockGranularity.AUTO, Duration.ofSeconds(30), ZoneId.of("UTC"), 10_000);
    }
}
