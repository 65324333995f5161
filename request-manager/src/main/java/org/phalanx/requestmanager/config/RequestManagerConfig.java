package org.phalanx.requestmanager.config;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

/**
 * The strategies a virtual database composes. Each is an independent choice.
 *
 * @param lockTimeout      longest a transaction waits for a scheduler lock before it is
 *                         rolled back with SQLState 40001
 * @param macroTimeZone    zone in which NOW()/CURRENT_* are evaluated when rewritten
 * @param analysisCacheSize SQL texts whose analysis is kept
 * @param placementRules   where CREATE TABLE puts new tables under RAIDb-0/RAIDb-2, tried in
 *                         order; without a matching rule a new table goes to every backend
 *                         (RAIDb-2) or to one in turn (RAIDb-0)
 * @param cache            the result cache, or null for none
 * @param recovery         the recovery log, or null for none (then backends cannot be brought back online)
 */
public record RequestManagerConfig(ReplicationLevel replication, WaitPolicy waitPolicy, BalancingPolicy balancing,
                                   LockGranularity lockGranularity, Duration lockTimeout, ZoneId macroTimeZone,
                                   int analysisCacheSize, List<PlacementRule> placementRules, CacheConfig cache,
                                   RecoveryConfig recovery) {

    public RequestManagerConfig(ReplicationLevel replication, WaitPolicy waitPolicy, BalancingPolicy balancing,
                                LockGranularity lockGranularity, Duration lockTimeout, ZoneId macroTimeZone,
                                int analysisCacheSize, List<PlacementRule> placementRules, CacheConfig cache) {
        this(replication, waitPolicy, balancing, lockGranularity, lockTimeout, macroTimeZone, analysisCacheSize,
                placementRules, cache, null);
    }

    public RequestManagerConfig withRecovery(RecoveryConfig recovery) {
        return new RequestManagerConfig(replication, waitPolicy, balancing, lockGranularity, lockTimeout, macroTimeZone,
                analysisCacheSize, placementRules, cache, recovery);
    }

    public RequestManagerConfig(ReplicationLevel replication, WaitPolicy waitPolicy, BalancingPolicy balancing,
                                LockGranularity lockGranularity, Duration lockTimeout, ZoneId macroTimeZone,
                                int analysisCacheSize, List<PlacementRule> placementRules) {
        this(replication, waitPolicy, balancing, lockGranularity, lockTimeout, macroTimeZone, analysisCacheSize,
                placementRules, null);
    }

    public RequestManagerConfig(ReplicationLevel replication, WaitPolicy waitPolicy, BalancingPolicy balancing,
                                LockGranularity lockGranularity, Duration lockTimeout, ZoneId macroTimeZone,
                                int analysisCacheSize) {
        this(replication, waitPolicy, balancing, lockGranularity, lockTimeout, macroTimeZone, analysisCacheSize,
                List.of(), null);
    }

    /** Refuses what cannot work with these backends: placement rules naming unknown backends, SingleDB over several. */
    public void validate(String virtualDatabase, List<BackendConfig> backends) {
        if (backends.isEmpty()) {
            throw new IllegalArgumentException("virtual database " + virtualDatabase + " has no backend");
        }
        for (PlacementRule rule : placementRules) {
            for (String backend : rule.backends()) {
                if (backends.stream().noneMatch(b -> b.name().equals(backend))) {
                    throw new IllegalArgumentException((rule.location() == null ? "" : rule.location() + ": ")
                            + "placement rule names unknown backend " + backend);
                }
            }
        }
        if (replication == ReplicationLevel.SINGLE_DB && backends.size() != 1) {
            throw new IllegalArgumentException("SingleDB takes exactly one backend, " + virtualDatabase
                    + " has " + backends.size());
        }
    }

    public static RequestManagerConfig defaults() {
        return new RequestManagerConfig(ReplicationLevel.RAIDB_1, WaitPolicy.FIRST, BalancingPolicy.ROUND_ROBIN,
                LockGranularity.AUTO, Duration.ofSeconds(30), ZoneId.of("UTC"), 10_000);
    }
}
