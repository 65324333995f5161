package org.phalanx.requestmanager.backend;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Takes hung backends out of service. A statement past half its backend's
 * {@code statementTimeLimit} is a question, not yet an answer: it may be long, or waiting for a
 * lock, on a healthy server. So the backend is asked to prove it is alive, on a new connection; if
 * it has not answered by the time the statement reaches the limit, the server is hung and the
 * backend is disabled (whoever waits for it is answered at once, see {@link Backend#disable}). A
 * backend that answers is left alone, and asked again if the statement runs on.
 */
public final class HangDetector implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(HangDetector.class);

    private final List<Backend> backends;
    private final ScheduledExecutorService ticks;
    private final ExecutorService probes;
    /** Backends being asked now. */
    private final Set<Backend> asking = ConcurrentHashMap.newKeySet();
    /** When each backend was last asked (only the tick thread uses it). */
    private final Map<Backend, Long> lastAsked = new HashMap<>();

    public HangDetector(List<Backend> backends) {
        this.backends = List.copyOf(backends);
        this.ticks = Executors.newSingleThreadScheduledExecutor(daemon("phalanx-hang-detector"));
        this.probes = Executors.newCachedThreadPool(daemon("phalanx-hang-probe"));
        long tick = backends.stream().map(b -> b.config().limits().statementTimeLimit())
                .filter(d -> !d.isZero()).mapToLong(d -> d.toMillis() / 8).min().orElse(0);
        if (tick > 0) {
            tick = Math.max(20, Math.min(1000, tick));
            ticks.scheduleWithFixedDelay(this::check, tick, tick, TimeUnit.MILLISECONDS);
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    private void check() {
        long now = System.nanoTime();
        for (Backend b : backends) {
            Duration limit = b.config().limits().statementTimeLimit();
            RunningStatements.Running oldest = b.running().oldest();
            if (limit.isZero() || !b.isEnabled() || oldest == null) {
                continue;
            }
            long half = limit.toNanos() / 2;
            Long last = lastAsked.get(b);
            if (now - oldest.startNanos < half || last != null && now - last < half || !asking.add(b)) {
                continue;
            }
            lastAsked.put(b, now);
            // the answer is due when the statement reaches the limit (a tick late at most: a quarter of it at least)
            Duration wait = Duration.ofNanos(Math.max(limit.toNanos() / 4, limit.toNanos() - (now - oldest.startNanos)));
            probes.execute(() -> {
                try {
                    ask(b, oldest, wait);
                } finally {
                    asking.remove(b);
                }
            });
        }
    }

    private void ask(Backend b, RunningStatements.Running suspect, Duration wait) {
        if (b.answers(wait)) {
            LOG.warn("backend {} has been running {} for {} ms, but it answers: left to run", b.name(),
                    suspect.what, (System.nanoTime() - suspect.startNanos) / 1_000_000);
            return;
        }
        if (suspect.stillRunning()) {
            b.disableToCatchUp("hung: a statement has run " + (System.nanoTime() - suspect.startNanos) / 1_000_000
                    + " ms (statementTimeLimit " + b.config().limits().statementTimeLimit().toMillis()
                    + " ms) and the server did not answer a validity check on a new connection within "
                    + wait.toMillis() + " ms");
        }
    }

    @Override
    public void close() {
        ticks.shutdownNow();
        probes.shutdownNow();
    }
}
