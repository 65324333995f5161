package org.phalanx.requestmanager.stats;

import java.util.concurrent.atomic.LongAdder;

/** Counters of one virtual database, kept in one place for the management interface. */
public final class Statistics {
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder commits = new LongAdder();
    private final LongAdder rollbacks = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder readRetries = new LongAdder();
    /** Writes that locked one row rather than their table (key-level conflicts). */
    private final LongAdder rowLevelWrites = new LongAdder();
    /** Per statement template; also counted on the request path. */
    private final StatementStatistics statements = new StatementStatistics();

    /** A consistent-enough copy for display. */
    public record Snapshot(long reads, long writes, long commits, long rollbacks, long errors,
                           long readRetries, long unparsedStatements, long rowLevelWrites) {
    }

    public void read() {
        reads.increment();
    }

    public void write() {
        writes.increment();
    }

    public void commit() {
        commits.increment();
    }

    public void rollback() {
        rollbacks.increment();
    }

    public void error() {
        errors.increment();
    }

    public void readRetry() {
        readRetries.increment();
    }

    public void rowLevelWrite() {
        rowLevelWrites.increment();
    }

    public StatementStatistics statements() {
        return statements;
    }

    public Snapshot snapshot(long unparsed) {
        return new Snapshot(reads.sum(), writes.sum(), commits.sum(), rollbacks.sum(), errors.sum(),
                readRetries.sum(), unparsed, rowLevelWrites.sum());
    }
}
