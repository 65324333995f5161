package org.phalanx.controller.config;

import java.time.Duration;
import java.util.Map;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.distribution.GroupConfig;
import org.phalanx.requestmanager.distribution.GroupMember;

/**
 * A virtual database hosted by a group of controllers ({@code <distribution>}).
 *
 * @param appendTimeout how long a write waits for a majority before its outcome counts as unknown
 * @param minorityReads whether the member serves read-only sessions while it sees less than a majority
 * @param compactAfter  how many entries the member's copy of the group's log holds before it compacts it (0: never
 *                      by itself)
 * @param standby       backends of other members this one declares and can take over, by name, with their owner
 *                      ({@code <backend owner="...">})
 */
public record DistributionConfig(GroupConfig group, Duration appendTimeout, boolean minorityReads, long compactAfter,
                                 Map<String, String> standby) {
    /** Default of {@code compactAfter}: a few megabytes of log on a busy group. */
    public static final long COMPACT_AFTER = 100_000;

    public DistributionConfig {
        standby = Map.copyOf(standby);
    }

    /**
     * @param requestManager the virtual database's request manager: its declared SQL dialect (null: that of its
     *                       backends), its replication and placement rules
     */
    public GroupMember.Settings memberSettings(RequestManagerConfig requestManager) {
        return new GroupMember.Settings(appendTimeout, minorityReads, compactAfter, requestManager.sqlDialect(),
                requestManager.replication(), requestManager.placementRules());
    }

    public boolean witness() {
        return group.me().witness();
    }
}
