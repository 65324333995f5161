package org.phalanx.controller.vdb;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * How long the controller takes to answer the requests of one virtual database: from a request's
 * last byte read to its reply's last byte written, so the network between client and controller
 * is left out and everything the controller does (decoding, scheduling, the cache or a backend,
 * encoding, the write) is in. Recorded in an HdrHistogram (3 significant digits) since start.
 */
public final class AnswerTimes {
    private final Histogram nanos = new ConcurrentHistogram(3);

    public void record(long elapsedNanos) {
        nanos.recordValue(Math.max(0, elapsedNanos));
    }

    /** A copy of everything recorded so far (for readers that compare two copies). */
    public Histogram snapshot() {
        return nanos.copy();
    }

    /** Count, then p50, p95, p99 and max in microseconds (0 before the first request). */
    public Map<String, Double> summaryMicros() {
        Histogram h = snapshot();
        Map<String, Double> summary = new LinkedHashMap<>();
        summary.put("count", (double) h.getTotalCount());
        summary.put("p50", h.getValueAtPercentile(50) / 1e3);
        summary.put("p95", h.getValueAtPercentile(95) / 1e3);
        summary.put("p99", h.getValueAtPercentile(99) / 1e3);
        summary.put("max", h.getMaxValue() / 1e3);
        return summary;
    }
}
