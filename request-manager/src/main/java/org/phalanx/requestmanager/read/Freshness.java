package org.phalanx.requestmanager.read;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.config.ReadRouting;
import org.phalanx.requestmanager.pipeline.Pipeline;

/** Which backends are fresh enough to serve a read: where the writes it must see are done. */
final class Freshness {
    private Freshness() {
    }

    /**
     * The backends among {@code candidates} the balancer may choose for a read of
     * {@code resources}: where the writes it must see are done. Strict (a read holding its
     * tables' locks: REPEATABLE READ, SERIALIZABLE): every write queued before it took them,
     * acknowledged or not ({@link #caughtUp}); otherwise every write acknowledged to a client
     * ({@link #freshest}). Routing by load only: all of them ({@link #awaitChosen} then waits).
     */
    static List<Backend> choosable(Pipeline p, List<Backend> candidates, Collection<String> resources, boolean strict) {
        if (p.readRouting() == ReadRouting.LOAD) {
            return candidates;
        }
        return strict ? caughtUp(candidates, resources) : freshest(candidates, resources);
    }

    /** Routing by load only: waits until the writes the read must see are done on the chosen backend. */
    static void awaitChosen(Pipeline p, Backend chosen, Collection<String> resources, boolean strict) {
        if (p.readRouting() != ReadRouting.LOAD) {
            return; // chosen among the fresh ones
        }
        if (strict) {
            // no one else writes these tables now (the read holds them): this ends
            while (!chosen.caughtUp(resources)) {
                chosen.queuedSoFar().join();
            }
            return;
        }
        CompletableFuture<?> acknowledged = chosen.caughtUp(resources) ? null : chosen.acknowledgedSoFar(resources);
        if (acknowledged != null) {
            acknowledged.join();
        }
    }

    /**
     * Those that have applied every write already queued on the read's tables, waiting for one if
     * none has.
     */
    private static List<Backend> caughtUp(List<Backend> candidates, Collection<String> resources) {
        while (true) {
            List<Backend> fresh = new ArrayList<>(candidates.size());
            List<CompletableFuture<?>> waiting = new ArrayList<>();
            for (Backend b : candidates) {
                if (b.caughtUp(resources)) {
                    fresh.add(b);
                } else {
                    waiting.add(b.queuedSoFar());
                }
            }
            if (!fresh.isEmpty() || waiting.isEmpty()) {
                return fresh;
            }
            CompletableFuture.anyOf(waiting.toArray(new CompletableFuture[0])).join();
        }
    }

    /**
     * Those that have applied every write already queued on the read's tables: under 'first'
     * another session's write, a CREATE TABLE for instance, may still be on its way to a slow
     * backend. If none has, those that have applied every write already acknowledged to a client
     * (waiting for one if need be): a client that reads over one connection what it wrote over
     * another, as a controller using this one as a backend does, then reads its writes.
     */
    private static List<Backend> freshest(List<Backend> candidates, Collection<String> resources) {
        List<Backend> fresh = new ArrayList<>(candidates.size());
        List<Backend> acknowledged = new ArrayList<>(candidates.size());
        Map<Backend, CompletableFuture<?>> waiting = new LinkedHashMap<>();
        for (Backend b : candidates) {
            if (b.caughtUp(resources)) {
                fresh.add(b);
                continue;
            }
            CompletableFuture<?> notRun = b.acknowledgedSoFar(resources);
            if (notRun == null) {
                acknowledged.add(b);
            } else {
                waiting.put(b, notRun);
            }
        }
        if (!fresh.isEmpty()) {
            return fresh;
        }
        if (!acknowledged.isEmpty()) {
            return acknowledged;
        }
        // the first to run what was acknowledged so far: later acknowledgements are not this read's to see
        CompletableFuture.anyOf(waiting.values().toArray(new CompletableFuture[0])).join();
        List<Backend> done = new ArrayList<>();
        waiting.forEach((b, f) -> {
            if (f.isDone()) {
                done.add(b);
            }
        });
        return done;
    }
}
