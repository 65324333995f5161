package org.phalanx.requestmanager.recovery;

import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.scheduler.Scheduler;

/** Writes a virtual database's recovery log; appends complete in order. */
public final class DurableLogWriter implements LogWriter {
    private final RecoveryLog log;
    private final Scheduler scheduler;
    private final AppliedRecords applied;
    /** Told each appended position (the checkpoint schedule counts writes). */
    private final LongConsumer appended;
    /** The append of the last entry handed to the log. */
    private volatile CompletableFuture<Void> lastAppend = CompletableFuture.completedFuture(null);

    public DurableLogWriter(RecoveryLog log, Scheduler scheduler, AppliedRecords applied, LongConsumer appended) {
        this.log = log;
        this.scheduler = scheduler;
        this.applied = applied;
        this.appended = appended;
    }

    @Override
    public CompletableFuture<Void> append(LogEntry entry) {
        CompletableFuture<Void> f = log.appendAsync(entry);
        lastAppend = f;
        appended.accept(entry.position());
        return f;
    }

    @Override
    public void failed(long failedPosition, String user) {
        applied.failedEverywhere(failedPosition);
        CompletableFuture<?>[] f = new CompletableFuture<?>[1];
        scheduler.order(position -> f[0] = append(LogEntry.failed(position, failedPosition, user)));
        LogWriter.awaitDurable(f[0]);
    }

    @Override
    public void awaitAppended() {
        LogWriter.awaitDurable(lastAppend);
    }
}
