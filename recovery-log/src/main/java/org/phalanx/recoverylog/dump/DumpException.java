package org.phalanx.recoverylog.dump;

/** A backup or restore failed, or was refused; the message says what and what was left behind. */
public class DumpException extends Exception {
    private static final long serialVersionUID = 1L;

    public DumpException(String message) {
        super(message);
    }

    public DumpException(String message, Throwable cause) {
        super(message, cause);
    }
}
