package org.phalanx.requestmanager;

import java.util.concurrent.atomic.LongAdder;

/** Counters of one virtual database, kept in one place for the management interface. */
public final class Statistics {
    final LongAdder reads = new LongAdder();
    final LongAdder writes = new LongAdder();
    final LongAdder commits = new LongAdder();
    final LongAdder rollbacks = new LongAdder();
    final LongAdder errors = new LongAdder();
    final LongAdder readRetries = new LongAdder();
    /** Per statement template; also counted on the request path. */
    final org.phalanx.requestmanager.stats.StatementStatistics statements =
            new org.phalanx.requestmanager.stats.StatementStatistics();

    /** A consistent-enough copy for display. */
    public record Snapshot(long reads, long writes, long commits, long rollbacks, long errors,
                           long readRetries, long unparsedStatements) {
    }

    Snapshot snapshot(long unparsed) {
        return new Snapshot(reads.sum(), writes.sum(), commits.sum(), rollbacks.sum(), errors.sum(),
                readRetries.sum(), unparsed);
    }
}
