package org.phalanx.requestmanager.recovery;

import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.scheduler.Scheduler;

/** Writes a virtual database's recovery log; appends complete in order. */
public final class DurableLogWriter implements LogWriter {
    private static final Logger LOG = LogManager.getLogger(DurableLogWriter.class);
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
        if (entry.kind() == LogEntry.Kind.ROLLBACK) {
            // a rollback needs no durability to be answered: the log writes a refused one later, and a
            // transaction the log never saw end is rolled back by every recovery
            return f.exceptionally(e -> null);
        }
        return f;
    }

    @Override
    public void counted(long position, long count, GeneratedKeys keys) {
        log.counted(position, count, keys);
    }

    @Override
    public void failed(long failedPosition, String user) {
        applied.failedEverywhere(failedPosition);
        CompletableFuture<?>[] f = new CompletableFuture<?>[1];
        scheduler.order(position -> f[0] = append(LogEntry.failed(position, failedPosition, user)));
        try {
            LogWriter.awaitDurable(f[0]);
        } catch (SQLException e) {
            // the client gets the write's own error; the log writes the FAILED entry once it can (RecoveryLog)
            LOG.warn("the failure of log position {} on every backend is not in the recovery log yet: {}",
                    failedPosition, e.getMessage());
        }
    }

    @Override
    public void awaitAppended() {
        lastAppend.handle((v, e) -> null).join(); // durable or refused: either way settled
    }
}
