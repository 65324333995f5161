package org.phalanx.controller.web;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;
import org.phalanx.controller.vdb.AnswerTimes;

/**
 * The dashboard's charts: once a second, each virtual database's throughput and the answer-time
 * percentiles of that second alone (the difference of two copies of its histogram), kept for the
 * last {@link #POINTS} seconds so a page opened now shows the recent past at once, whoever else
 * is looking.
 */
final class LiveSeries implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(LiveSeries.class);
    static final int POINTS = 300;

    /** One second of one virtual database; latencies in milliseconds (0 when nothing was answered). */
    record Point(long timeMillis, double requestsPerSecond, double errorsPerSecond, double p50Millis,
                 double p95Millis, double p99Millis, int pendingRequests) {
    }

    private record Previous(long nanos, long requests, long errors, Histogram times) {
    }

    private final ManagedObjects mbeans;
    private final Function<String, Optional<AnswerTimes>> answerTimes;
    private final Map<String, Previous> previous = new HashMap<>();
    private final Map<String, Deque<Point>> series = new HashMap<>();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "phalanx-dashboard-sampler");
        t.setDaemon(true);
        return t;
    });

    LiveSeries(ManagedObjects mbeans, Function<String, Optional<AnswerTimes>> answerTimes) {
        this.mbeans = mbeans;
        this.answerTimes = answerTimes;
    }

    void start() {
        sampler.scheduleAtFixedRate(this::sampleQuietly, 0, 1, TimeUnit.SECONDS);
    }

    /** The points of one virtual database, oldest first. */
    synchronized List<Point> of(String vdb) {
        return new ArrayList<>(series.getOrDefault(vdb, new ArrayDeque<>()));
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (RuntimeException e) {
            LOG.debug("Dashboard sample skipped: {}", e.toString());
        }
    }

    synchronized void sample() {
        List<String> names = mbeans.virtualDatabases();
        series.keySet().retainAll(names);
        previous.keySet().retainAll(names);
        for (String vdb : names) {
            Optional<AnswerTimes> times = answerTimes.apply(vdb);
            if (times.isEmpty()) {
                continue;
            }
            VirtualDatabaseMXBean v = mbeans.virtualDatabase(vdb);
            long now = System.nanoTime();
            long requests = v.getReads() + v.getWrites() + v.getCommits() + v.getRollbacks();
            long errors = v.getErrors();
            Histogram histogram = times.get().snapshot();
            Previous before = previous.put(vdb, new Previous(now, requests, errors, histogram));
            if (before == null) {
                continue; // a rate needs two samples
            }
            double seconds = (now - before.nanos()) / 1e9;
            Histogram second = histogram.copy();
            second.subtract(before.times());
            Deque<Point> points = series.computeIfAbsent(vdb, k -> new ArrayDeque<>());
            points.addLast(new Point(System.currentTimeMillis(), (requests - before.requests()) / seconds,
                    (errors - before.errors()) / seconds, millis(second, 50), millis(second, 95), millis(second, 99),
                    v.getPendingRequests()));
            while (points.size() > POINTS) {
                points.removeFirst();
            }
        }
    }

    private static double millis(Histogram micros, double percentile) {
        return micros.getTotalCount() == 0 ? 0 : micros.getValueAtPercentile(percentile) / 1000.0;
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
