package org.phalanx.controller.web;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.sql.SQLException;
import java.util.Optional;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.jmx.BackendMXBean;
import org.phalanx.controller.jmx.CacheMXBean;
import org.phalanx.controller.jmx.ControllerMXBean;
import org.phalanx.controller.jmx.RecoveryLogMXBean;
import org.phalanx.controller.jmx.VerificationDescription;
import org.phalanx.controller.jmx.VerificationProgressDescription;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;
import org.phalanx.controller.vdb.AnswerTimes;

/**
 * The controller's figures in Prometheus form, read at each scrape from the same MBeans JMX
 * serves (nothing is counted twice). Names follow Prometheus conventions: {@code phalanx_} prefix,
 * base units (seconds, bytes), {@code _total} on counters; labels {@code vdb} and {@code backend}.
 */
final class ClusterMetrics implements MultiCollector {
    private static final Logger LOG = LogManager.getLogger(ClusterMetrics.class);
    /** Upper bounds of the answer-time buckets, in seconds: 50 µs to 10 s. */
    static final double[] ANSWER_BUCKETS = {0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
            0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    static final String[] BACKEND_STATES = {"ENABLED", "DISABLED", "REPLAYING", "RESTORING"};

    private final ManagedObjects mbeans;
    private final Function<String, Optional<AnswerTimes>> answerTimes;

    ClusterMetrics(ManagedObjects mbeans, Function<String, Optional<AnswerTimes>> answerTimes) {
        this.mbeans = mbeans;
        this.answerTimes = answerTimes;
    }

    @Override
    public MetricSnapshots collect() {
        MetricFamilies m = new MetricFamilies();
        ControllerMXBean controller = mbeans.controller();
        m.gauge("phalanx_build_info", "The controller's version (always 1).", 1, Labels.of("version", controller.getVersion()));
        m.gauge("phalanx_client_connections", "Client connections open now.", controller.getOpenConnections(), Labels.EMPTY);
        for (String vdb : mbeans.virtualDatabases()) {
            try {
                virtualDatabase(m, vdb);
            } catch (RuntimeException e) {
                // unloaded while we read it: the next scrape will not show it
                LOG.debug("Virtual database {} left out of a scrape: {}", vdb, e.toString());
            }
        }
        return m.build();
    }

    private void virtualDatabase(MetricFamilies m, String vdb) {
        VirtualDatabaseMXBean v = mbeans.virtualDatabase(vdb);
        Labels l = Labels.of("vdb", vdb);
        String requests = "Requests answered, by kind.";
        m.counter("phalanx_requests", requests, v.getReads(), Labels.of("vdb", vdb, "kind", "read"));
        m.counter("phalanx_requests", requests, v.getWrites(), Labels.of("vdb", vdb, "kind", "write"));
        m.counter("phalanx_requests", requests, v.getCommits(), Labels.of("vdb", vdb, "kind", "commit"));
        m.counter("phalanx_requests", requests, v.getRollbacks(), Labels.of("vdb", vdb, "kind", "rollback"));
        m.counter("phalanx_errors", "Requests answered with an error.", v.getErrors(), l);
        m.counter("phalanx_read_retries", "Reads retried on another backend after one failed.", v.getReadRetries(), l);
        m.counter("phalanx_unparsed_statements", "Statements the SQL parser could not read (run as writes of every table).",
                v.getUnparsedStatements(), l);
        m.gauge("phalanx_pending_requests", "Requests in progress over all backends (queued writes included).",
                v.getPendingRequests(), l);
        m.gauge("phalanx_open_sessions", "Client sessions open.", v.getOpenSessions(), l);
        m.gauge("phalanx_open_transactions", "Transactions open.", v.getOpenTransactions(), l);
        answerTimes.apply(vdb).ifPresent(times -> m.histogram("phalanx_answer_duration_seconds",
                "How long the controller took to answer a request, from its last byte read to the reply's last byte written.",
                answerTimePoint(times.snapshot(), l)));
        long logPosition = recoveryLog(m, vdb, l);
        for (BackendMXBean b : mbeans.backends(vdb)) {
            backend(m, vdb, b, logPosition);
        }
        mbeans.cache(vdb).ifPresent(c -> cache(m, c, l));
        verification(m, vdb, v, l);
    }

    /** The last finished verification, and whether one runs now. */
    private static void verification(MetricFamilies m, String vdb, VirtualDatabaseMXBean v, Labels l) {
        VerificationProgressDescription running = v.getVerificationProgress();
        m.gauge("phalanx_verification_running", "1 while a replica verification runs.", running == null ? 0 : 1, l);
        if (running != null) {
            m.gauge("phalanx_verification_progress_rows", "Rows the running verification compared so far.",
                    running.rowsDone(), l);
        }
        VerificationDescription last = v.getLastVerification();
        if (last == null) {
            return;
        }
        m.gauge("phalanx_verification_last_run_timestamp_seconds", "When the last finished verification started.",
                java.time.Instant.parse(last.started()).toEpochMilli() / 1000.0, l);
        m.gauge("phalanx_verification_duration_seconds", "How long the last finished verification took.",
                last.millis() / 1000.0, l);
        m.gauge("phalanx_verification_rows_compared", "Rows the last finished verification compared.", last.rowsCompared(), l);
        m.gauge("phalanx_verification_differences", "Rows the last finished verification found different across replicas"
                + " (0: the replicas are identical).", last.differences(), l);
        for (String backend : last.minority()) {
            m.gauge("phalanx_verification_outvoted", "1 for each replica the majority outvoted in the last verification.",
                    1, Labels.of("vdb", vdb, "backend", backend));
        }
    }

    /** The recovery log's figures; returns its last position (-1 without a log). */
    private long recoveryLog(MetricFamilies m, String vdb, Labels l) {
        Optional<RecoveryLogMXBean> found = mbeans.recoveryLog(vdb);
        if (found.isEmpty()) {
            return -1;
        }
        RecoveryLogMXBean log = found.get();
        long last = log.getLastPosition();
        m.gauge("phalanx_recovery_log_position", "The recovery log's last position.", last, l);
        m.gauge("phalanx_recovery_log_entries", "Entries the recovery log holds (not yet purged).", log.getSize(), l);
        m.counter("phalanx_recovery_log_appended_entries", "Entries made durable since the controller started.",
                log.getAppendedEntries(), l);
        m.counter("phalanx_recovery_log_group_commits", "Durable writes that carried them (appends share one where they can).",
                log.getGroupCommits(), l);
        return last;
    }

    private static void backend(MetricFamilies m, String vdb, BackendMXBean b, long logPosition) {
        Labels l = Labels.of("vdb", vdb, "backend", b.getName());
        String state = b.getState();
        m.gauge("phalanx_backend_up", "1 while the backend serves (ENABLED), else 0.", "ENABLED".equals(state) ? 1 : 0, l);
        for (String s : BACKEND_STATES) {
            m.gauge("phalanx_backend_state", "1 for the backend's current state.", s.equals(state) ? 1 : 0,
                    Labels.of("vdb", vdb, "backend", b.getName(), "state", s));
        }
        m.gauge("phalanx_backend_pending_requests", "Requests in progress on the backend (queued writes included).",
                b.getPendingRequests(), l);
        m.gauge("phalanx_backend_queued_writes", "Writes, commits and rollbacks queued or running on the backend.",
                b.getQueuedWrites(), l);
        String requests = "Requests the backend executed, by kind (writes include commits and rollbacks).";
        m.counter("phalanx_backend_requests", requests, b.getReads(), Labels.of("vdb", vdb, "backend", b.getName(), "kind", "read"));
        m.counter("phalanx_backend_requests", requests, b.getWrites(), Labels.of("vdb", vdb, "backend", b.getName(), "kind", "write"));
        m.counter("phalanx_backend_errors", "Requests that failed on the backend.", b.getErrors(), l);
        m.counter("phalanx_backend_busy_seconds", "Execution time of every request on the backend, summed"
                + " (its rate over the requests' rate is the backend's latency).", b.getTotalTimeMicros() / 1e6, l);
        m.gauge("phalanx_backend_replay_lag_entries", "Recovery-log entries a backend out of service is behind"
                + " (from its checkpoint to the log's last position); 0 while enabled.", replayLag(b, state, logPosition), l);
    }

    /** Entries from a backend's checkpoint to the log's end while it is out of service; 0 while enabled. */
    static long replayLag(BackendMXBean b, String state, long logPosition) {
        if ("ENABLED".equals(state) || logPosition < 0) {
            return 0;
        }
        try {
            long checkpoint = b.getCheckpoint();
            return checkpoint < 0 ? 0 : Math.max(0, logPosition - checkpoint);
        } catch (SQLException e) {
            return 0;
        }
    }

    private static void cache(MetricFamilies m, CacheMXBean c, Labels l) {
        m.counter("phalanx_cache_hits", "Reads answered from the result cache.", c.getHits(), l);
        m.counter("phalanx_cache_misses", "Cacheable reads the cache could not answer.", c.getMisses(), l);
        m.counter("phalanx_cache_invalidations", "Cache entries dropped because a write may have changed them.",
                c.getInvalidations(), l);
        m.counter("phalanx_cache_evictions", "Cache entries dropped for room.", c.getEvictions(), l);
        m.gauge("phalanx_cache_entries", "Results held in the cache.", c.getEntries(), l);
        m.gauge("phalanx_cache_memory_bytes", "Memory the cached results take (estimated).", c.getMemoryBytes(), l);
    }

    /**
     * The HdrHistogram of answer times (µs) as classic Prometheus buckets; the sum is the mean times
     * the count (HdrHistogram keeps values to 1%, so the sum is as precise as that).
     */
    static HistogramDataPointSnapshot answerTimePoint(Histogram micros, Labels labels) {
        long total = micros.getTotalCount();
        double[] bounds = new double[ANSWER_BUCKETS.length + 1];
        long[] counts = new long[bounds.length];
        long below = 0;
        for (int i = 0; i < ANSWER_BUCKETS.length; i++) {
            bounds[i] = ANSWER_BUCKETS[i];
            long upToBound = micros.getCountBetweenValues(0, Math.round(ANSWER_BUCKETS[i] * 1e6));
            counts[i] = upToBound - below;
            below = upToBound;
        }
        bounds[ANSWER_BUCKETS.length] = Double.POSITIVE_INFINITY;
        counts[ANSWER_BUCKETS.length] = total - below;
        return HistogramDataPointSnapshot.builder()
                .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
                .sum(total == 0 ? 0 : micros.getMean() * total / 1e6)
                .labels(labels)
                .build();
    }
}
