package org.phalanx.requestmanager.config;

/** Which of the backends able to serve a read gets it. */
public enum BalancingPolicy {
    ROUND_ROBIN,
    /** Round robin in proportion to each backend's configured weight. */
    WEIGHTED_ROUND_ROBIN,
    /** The backend with the fewest requests in progress. */
    LEAST_PENDING
}
