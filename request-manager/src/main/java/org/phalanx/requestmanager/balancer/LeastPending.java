package org.phalanx.requestmanager.balancer;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.phalanx.requestmanager.backend.Backend;

/** The candidate with the fewest requests in progress; ties broken in turn so load spreads. */
public final class LeastPending implements ReadBalancer {
    private final AtomicLong counter = new AtomicLong();

    @Override
    public Backend choose(List<Backend> candidates) {
        int n = candidates.size();
        if (n == 1) {
            return candidates.get(0);
        }
        int start = (int) Math.floorMod(counter.getAndIncrement(), (long) n);
        Backend best = null;
        int bestPending = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            Backend b = candidates.get((start + i) % n);
            int p = b.pending();
            if (p < bestPending) {
                best = b;
                bestPending = p;
            }
        }
        return best;
    }
}
