package org.phalanx.requestmanager.recovery;

import java.sql.SQLException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.recoverylog.LogEntry;

/**
 * The log stage: hands every write, commit and rollback to the recovery log in the total order,
 * so it is durable before the client is answered. {@link #NONE} stands for a virtual database
 * without a recovery log.
 *
 * <p>An entry the log refuses (its disk is full, its database gone) is not in the log: the unit it
 * belongs to is rolled back on every backend (a backend commits a unit only once its entry is
 * durable) and the client gets {@link #awaitDurable}'s error. Later entries are tried again: the
 * log takes writes again as soon as its storage does.
 */
public interface LogWriter {

    /**
     * Hands an entry to the log; call inside the write ordering (entries must arrive in order).
     * Completes once durable, or fails if the log refused it.
     */
    CompletableFuture<Void> append(LogEntry entry);

    /** Records that the write at that position failed on every backend (replay may see it fail too). */
    void failed(long failedPosition, String user);

    /** The update count the auto-commit statement at that position had ({@link org.phalanx.recoverylog.RecoveryLog#counted}). */
    default void counted(long position, long count, GeneratedKeys keys) {
    }

    /** Waits until everything handed to the log so far is durable or refused. */
    void awaitAppended();

    /**
     * Waits until an entry is durable; the client must not be answered before.
     *
     * @throws SQLException if the log refused it: SQLState {@code 53100} (its storage is full) or
     *                      {@code 58030}; the unit was rolled back on every backend
     */
    static void awaitDurable(CompletableFuture<?> appended) throws SQLException {
        if (appended == null) {
            return;
        }
        try {
            appended.join();
        } catch (CompletionException | CancellationException e) {
            throw LogRefusal.of(e);
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
