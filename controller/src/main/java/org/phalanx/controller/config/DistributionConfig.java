package org.phalanx.controller.config;

import java.time.Duration;
import org.phalanx.requestmanager.distribution.GroupConfig;

/**
 * A virtual database hosted by a group of controllers ({@code <distribution>}).
 *
 * @param appendTimeout how long a write waits for a majority before its outcome counts as unknown
 */
public record DistributionConfig(GroupConfig group, Duration appendTimeout) {
    public boolean witness() {
        return group.me().witness();
    }
}
