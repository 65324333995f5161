package org.phalanx.requestmanager.config;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import org.phalanx.engine.Engine;

/**
 * The strategies a virtual database composes. Each is an independent choice. Build one with
 * {@link #builder()}, which starts from the defaults; the constructor refuses values that cannot
 * work, so no invalid configuration exists.
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
 * @param defaultIsolation the isolation level of a session that asks for none (a JDBC
 *                         {@code Connection.TRANSACTION_*} constant), or 0 for the weakest default
 *                         of the backends' engines
 * @param readRouting      how a read that must see certain writes picks its backend
 * @param sqlDialect       the SQL dialect applications write in, translated for backends of other
 *                         engines; null for that of the backends (a single-engine virtual database)
 * @param keepsResultDescriptions whether what results look like is kept per statement
 *                         ({@link org.phalanx.requestmanager.exec.ResultDescriptions}); not where
 *                         the backends change under the request manager (a follower's readers)
 */
public record RequestManagerConfig(ReplicationLevel replication, WaitPolicy waitPolicy, BalancingPolicy balancing,
                                   LockGranularity lockGranularity, Duration lockTimeout, ZoneId macroTimeZone,
                                   int analysisCacheSize, List<PlacementRule> placementRules, CacheConfig cache,
                                   RecoveryConfig recovery, int defaultIsolation, ReadRouting readRouting,
                                   Engine sqlDialect, boolean keepsResultDescriptions) {

    public RequestManagerConfig {
        Objects.requireNonNull(replication, "replication");
        Objects.requireNonNull(waitPolicy, "waitPolicy");
        Objects.requireNonNull(balancing, "balancing");
        Objects.requireNonNull(lockGranularity, "lockGranularity");
        Objects.requireNonNull(macroTimeZone, "macroTimeZone");
        Objects.requireNonNull(readRouting, "readRouting");
        if (lockTimeout == null || lockTimeout.isZero() || lockTimeout.isNegative()) {
            throw new IllegalArgumentException("lockTimeout must be longer than 0, not " + lockTimeout);
        }
        if (analysisCacheSize < 1) {
            throw new IllegalArgumentException("analysisCacheSize must be at least 1, not " + analysisCacheSize);
        }
        placementRules = List.copyOf(placementRules);
        if (defaultIsolation != 0 && !org.phalanx.engine.Isolation.isLevel(defaultIsolation)) {
            throw new IllegalArgumentException("defaultIsolation is not an isolation level: " + defaultIsolation);
        }
    }

    /** A builder holding the defaults: RAIDb-1, wait for the first backend, round robin, 30 s lock timeout, UTC. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this configuration, to change some of it. */
    public Builder toBuilder() {
        return new Builder().replication(replication).waitPolicy(waitPolicy).balancing(balancing)
                .lockGranularity(lockGranularity).lockTimeout(lockTimeout).macroTimeZone(macroTimeZone)
                .analysisCacheSize(analysisCacheSize).placementRules(placementRules).cache(cache).recovery(recovery)
                .defaultIsolation(defaultIsolation).readRouting(readRouting).sqlDialect(sqlDialect)
                .keepsResultDescriptions(keepsResultDescriptions);
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

    /** Collects the choices; {@link #build()} checks them. */
    public static final class Builder {
        private ReplicationLevel replication = ReplicationLevel.RAIDB_1;
        private WaitPolicy waitPolicy = WaitPolicy.FIRST;
        private BalancingPolicy balancing = BalancingPolicy.ROUND_ROBIN;
        private LockGranularity lockGranularity = LockGranularity.AUTO;
        private Duration lockTimeout = Duration.ofSeconds(30);
        private ZoneId macroTimeZone = ZoneId.of("UTC");
        private int analysisCacheSize = 10_000;
        private List<PlacementRule> placementRules = List.of();
        private CacheConfig cache;
        private RecoveryConfig recovery;
        private int defaultIsolation;
        private ReadRouting readRouting = ReadRouting.CONFLICT_AWARE;
        private Engine sqlDialect;
        private boolean keepsResultDescriptions = true;

        private Builder() {
        }

        public Builder replication(ReplicationLevel replication) {
            this.replication = replication;
            return this;
        }

        public Builder waitPolicy(WaitPolicy waitPolicy) {
            this.waitPolicy = waitPolicy;
            return this;
        }

        public Builder balancing(BalancingPolicy balancing) {
            this.balancing = balancing;
            return this;
        }

        public Builder lockGranularity(LockGranularity lockGranularity) {
            this.lockGranularity = lockGranularity;
            return this;
        }

        public Builder lockTimeout(Duration lockTimeout) {
            this.lockTimeout = lockTimeout;
            return this;
        }

        public Builder macroTimeZone(ZoneId macroTimeZone) {
            this.macroTimeZone = macroTimeZone;
            return this;
        }

        public Builder analysisCacheSize(int analysisCacheSize) {
            this.analysisCacheSize = analysisCacheSize;
            return this;
        }

        public Builder placementRules(List<PlacementRule> placementRules) {
            this.placementRules = placementRules;
            return this;
        }

        /** The result cache, or null (the default) for none. */
        public Builder cache(CacheConfig cache) {
            this.cache = cache;
            return this;
        }

        /** A JDBC {@code Connection.TRANSACTION_*} level, or 0 (the default) for the engines' own. */
        public Builder defaultIsolation(int defaultIsolation) {
            this.defaultIsolation = defaultIsolation;
            return this;
        }

        public Builder readRouting(ReadRouting readRouting) {
            this.readRouting = readRouting;
            return this;
        }

        /** The SQL dialect applications write in, or null (the default) for that of the backends. */
        public Builder sqlDialect(Engine sqlDialect) {
            this.sqlDialect = sqlDialect;
            return this;
        }

        /** Whether what results look like is kept per statement (the default); not where backends change under it. */
        public Builder keepsResultDescriptions(boolean keeps) {
            this.keepsResultDescriptions = keeps;
            return this;
        }

        /** The recovery log, or null (the default) for none. */
        public Builder recovery(RecoveryConfig recovery) {
            this.recovery = recovery;
            return this;
        }

        /** @throws IllegalArgumentException or NullPointerException naming the first value that cannot work */
        public RequestManagerConfig build() {
            return new RequestManagerConfig(replication, waitPolicy, balancing, lockGranularity, lockTimeout,
                    macroTimeZone, analysisCacheSize, placementRules, cache, recovery, defaultIsolation, readRouting,
                    sqlDialect, keepsResultDescriptions);
        }
    }
}
