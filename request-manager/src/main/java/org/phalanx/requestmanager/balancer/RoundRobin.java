package org.phalanx.requestmanager.balancer;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.phalanx.requestmanager.backend.Backend;

/** Each read to the next candidate in turn. */
public final class RoundRobin implements ReadBalancer {
    private final AtomicLong counter = new AtomicLong();

    @Override
    public Backend choose(List<Backend> candidates) {
        return candidates.get((int) Math.floorMod(counter.getAndIncrement(), (long) candidates.size()));
    }
}
