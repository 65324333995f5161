package org.phalanx.requestmanager.stats;

import java.util.concurrent.atomic.LongAdder;

/**
 * Work done by one backend: reads, and queued tasks (writes, commits, rollbacks), with their
 * execution time (queue wait excluded) and failures. Lock-free counters on the request path.
 */
public final class BackendStatistics {
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();

    public void read(long nanos, boolean failed) {
        reads.increment();
        add(nanos, failed);
    }

    public void write(long nanos, boolean failed) {
        writes.increment();
        add(nanos, failed);
    }

    private void add(long nanos, boolean failed) {
        totalNanos.add(nanos);
        if (failed) {
            errors.increment();
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(reads.sum(), writes.sum(), errors.sum(), totalNanos.sum());
    }

    /**
     * A copy for display. The mean latency over an interval is the difference of
     * {@code totalNanos} divided by the difference of {@code requests()} (the console's monitor).
     */
    public record Snapshot(long reads, long writes, long errors, long totalNanos) {
        public long requests() {
            return reads + writes;
        }

        public long meanNanos() {
            long n = requests();
            return n == 0 ? 0 : totalNanos / n;
        }
    }
}
