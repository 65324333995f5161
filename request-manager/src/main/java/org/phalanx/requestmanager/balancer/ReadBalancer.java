package org.phalanx.requestmanager.balancer;

import java.util.List;
import org.phalanx.requestmanager.config.BalancingPolicy;
import org.phalanx.requestmanager.backend.Backend;

/** Picks, among the backends able to serve a read, the one that gets it. */
public interface ReadBalancer {

    /** @param candidates non-empty, in configuration order */
    Backend choose(List<Backend> candidates);

    static ReadBalancer of(BalancingPolicy policy) {
        switch (policy) {
            case WEIGHTED_ROUND_ROBIN:
                return new WeightedRoundRobin();
            case LEAST_PENDING:
                return new LeastPending();
            default:
                return new RoundRobin();
        }
    }
}
