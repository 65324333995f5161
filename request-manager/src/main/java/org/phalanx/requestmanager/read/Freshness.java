package org.phalanx.requestmanager.read;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.phalanx.requestmanager.backend.Backend;

/** Which backends are fresh enough to serve a read outside a transaction. */
final class Freshness {
    private Freshness() {
    }

    /**
     * Among backends able to serve a read, those that have applied every write already queued on
     * its tables ({@code resources}): under 'first' another session's write, a CREATE TABLE for
     * instance, may still be on its way to a slow backend. If none has, those that have applied
     * every write already acknowledged to a client (waiting for one if need be): a client that
     * reads over one connection what it wrote over another, as a controller using this one as a
     * backend does, then reads its writes.
     */
    /**
     * Among backends able to serve a read, those that have applied every write already queued on
     * its tables, waiting for one if none has: a read holding its tables' locks (REPEATABLE READ,
     * SERIALIZABLE) must see every commit queued before it took them, acknowledged or not.
     */
    static List<Backend> caughtUp(List<Backend> candidates, Collection<String> resources) {
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

    static List<Backend> freshest(List<Backend> candidates, Collection<String> resources) {
        while (true) {
            List<Backend> fresh = new ArrayList<>(candidates.size());
            List<Backend> acknowledged = new ArrayList<>(candidates.size());
            List<CompletableFuture<?>> waiting = new ArrayList<>();
            for (Backend b : candidates) {
                if (b.caughtUp(resources)) {
                    fresh.add(b);
                    continue;
                }
                CompletableFuture<?> notRun = b.acknowledgedButNotRun(resources);
                if (notRun == null) {
                    acknowledged.add(b);
                } else {
                    waiting.add(notRun);
                }
            }
            if (!fresh.isEmpty()) {
                return fresh;
            }
            if (!acknowledged.isEmpty()) {
                return acknowledged;
            }
            CompletableFuture.anyOf(waiting.toArray(new CompletableFuture[0])).handle((v, e) -> null).join();
        }
    }
}
