package org.phalanx.requestmanager.recovery;

import java.sql.SQLException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.LogFullException;
import org.phalanx.recoverylog.OutcomeUnknownException;

/**
 * The client's error for a unit the recovery log refused (it is not in the log and was rolled
 * back everywhere): {@code 53100} (disk_full) when the log's storage had no room, so that the
 * operator knows freeing space is the cure, {@code 58030} (io_error) for any other failure. An
 * append a group's log did not answer may yet be applied by the group: its message says the
 * outcome is unknown, but its state stays {@code 58030}, the log's failure (a class 08 state would
 * read as the backend's connection failing, and disable it).
 */
final class LogRefusal {
    private LogRefusal() {
    }

    static SQLException of(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof OutcomeUnknownException) {
            return new SQLException("the write's outcome is unknown: " + cause.getMessage(), SqlState.IO_ERROR.code(),
                    cause);
        }
        SqlState state = cause instanceof LogFullException ? SqlState.DISK_FULL : SqlState.IO_ERROR;
        return new SQLException("the recovery log refused the write, which was not applied: " + cause.getMessage(),
                state.code(), cause);
    }
}
