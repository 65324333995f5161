package org.phalanx.requestmanager.recovery;

import java.util.concurrent.CompletableFuture;
import org.phalanx.recoverylog.LogEntry;

/**
 * The log stage: hands every write, commit and rollback to the recovery log in the total order,
 * so it is durable before the client is answered. {@link #NONE} stands for a virtual database
 * without a recovery log.
 */
public interface LogWriter {

    /** Hands an entry to the log; call inside the write ordering (entries must arrive in order). Completes once durable. */
    CompletableFuture<Void> append(LogEntry entry);

    /** Records that the write at that position failed on every backend (replay may see it fail too). */
    void failed(long failedPosition, String user);

    /** Waits until everything handed to the log so far is durable. */
    void awaitAppended();

    /** Waits until an entry is durable; the client must not be answered before. */
    static void awaitDurable(CompletableFuture<?> appended) {
        if (appended != null) {
            appended.join();
        }
    }

    /** No recovery log: nothing to write, nothing to wait for. */
    LogWriter NONE = new LogWriter() {
        private final CompletableFuture<Void> done = CompletableFuture.completedFuture(null);

        @Override
        public CompletableFuture<Void> append(LogEntry entry) {
            return done;
        }

        @Override
        public void failed(long failedPosition, String user) {
        }

        @Override
        public void awaitAppended() {
        }
    };
}
