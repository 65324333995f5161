package org.phalanx.requestmanager.balancer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.backend.Backend;

class BalancerTest {
    private static Backend backend(String name, int weight) {
        return new Backend(BackendConfig.builder(name, "jdbc:none:" + name).poolSize(1).weight(weight).build(), Duration.ofSeconds(1), b -> { });
    }

    private static Map<String, Integer> spread(ReadBalancer balancer, List<Backend> candidates, int reads) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < reads; i++) {
            counts.merge(balancer.choose(candidates).name(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void roundRobinTakesTurns() {
        List<Backend> bs = List.of(backend("a", 1), backend("b", 1), backend("c", 1));
        assertEquals(Map.of("a", 10, "b", 10, "c", 10), spread(new RoundRobin(), bs, 30));
    }

    @Test
    void weightedRoundRobinFollowsTheWeights() {
        List<Backend> bs = List.of(backend("a", 1), backend("b", 3));
        assertEquals(Map.of("a", 25, "b", 75), spread(new WeightedRoundRobin(), bs, 100));
    }

    @Test
    void leastPendingAvoidsBusyBackends() {
        Backend busy = backend("busy", 1);
        Backend idle = backend("idle", 1);
        busy.readStarted();
        busy.readStarted();
        assertEquals(Map.of("idle", 20), spread(new LeastPending(), List.of(busy, idle), 20));
        busy.readFinished();
        busy.readFinished();
        assertEquals(Map.of("busy", 10, "idle", 10), spread(new LeastPending(), List.of(busy, idle), 20));
    }
}
