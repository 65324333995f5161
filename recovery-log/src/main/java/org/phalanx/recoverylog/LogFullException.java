package org.phalanx.recoverylog;

/**
 * The recovery log's storage had no room for an entry: a full disk or quota under a file log, a
 * full log database under a JDBC log. The refused entries are not in the log (see
 * {@link RecoveryLog#appendAsync}); appends succeed again as soon as space returns.
 */
public final class LogFullException extends RecoveryLogException {
    private static final long serialVersionUID = 1L;

    public LogFullException(String message, Throwable cause) {
        super(message, cause);
    }
}
