package org.phalanx.controller.config;

import java.time.Duration;
import org.phalanx.requestmanager.distribution.GroupConfig;

/**
 * A virtual database hosted by a group of controllers ({@code <distribution>}).
 *
 * @param appendTimeout how long a write waits for a majority before its outcome counts as unknown
 * @param minorityReads whether the member serves read-only sessions while it sees less than a majority
 */
public record DistributionConfig(GroupConfig group, Duration appendTimeout, boolean minorityReads) {
    public boolean witness() {
        return group.me().witness();
    }
}
