package org.phalanx.requestmanager.balancer;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.phalanx.requestmanager.backend.Backend;

/** Round robin where a backend of weight w gets w turns per cycle (weight 0: never, unless alone). */
public final class WeightedRoundRobin implements ReadBalancer {
    private final AtomicLong counter = new AtomicLong();

    @Override
    public Backend choose(List<Backend> candidates) {
        long total = 0;
        for (Backend b : candidates) {
            total += Math.max(0, b.weight());
        }
        if (total == 0) {
            return candidates.get((int) Math.floorMod(counter.getAndIncrement(), (long) candidates.size()));
        }
        long slot = Math.floorMod(counter.getAndIncrement(), total);
        for (Backend b : candidates) {
            slot -= Math.max(0, b.weight());
            if (slot < 0) {
                return b;
            }
        }
        return candidates.get(candidates.size() - 1);
    }
}
