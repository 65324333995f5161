package org.phalanx.controller.vdb;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * How long the controller takes to answer the requests of one virtual database: from a request's
 * last byte read to its reply's last byte written, so the network between client and controller
 * is left out and everything the controller does (decoding, scheduling, the cache or a backend,
 * encoding, the write) is in. Recorded since start in an HdrHistogram of whole microseconds with
 * 2 significant digits (1% precision), small enough to copy often.
 */
public final class AnswerTimes {
    private final Histogram micros = new ConcurrentHistogram(2);

    public void record(long elapsedNanos) {
        micros.recordValue(Math.max(0, elapsedNanos) / 1_000);
    }

    /** How many answers were recorded so far (cheap: no copy). */
    public long count() {
        return micros.getTotalCount();
    }

    /** A copy of everything recorded so far, in microseconds (for readers that compare two copies). */
    public Histogram snapshot() {
        return micros.copy();
    }

    /** Count, then p50, p95, p99 and max in microseconds (0 before the first request). */
    public Map<String, Double> summaryMicros() {
        Histogram h = snapshot();
        Map<String, Double> summary = new LinkedHashMap<>();
        summary.put("count", (double) h.getTotalCount());
        summary.put("p50", (double) h.getValueAtPercentile(50));
        summary.put("p95", (double) h.getValueAtPercentile(95));
        summary.put("p99", (double) h.getValueAtPercentile(99));
        summary.put("max", (double) h.getMaxValue());
        return summary;
    }
}
