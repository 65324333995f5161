package org.phalanx.recoverylog;

/**
 * A recovery log could not do what was asked: an I/O or database failure, a damaged log, or a
 * request the log must refuse (entries already purged). Unchecked because the log is also read
 * through an {@link java.util.Iterator}, which cannot throw checked exceptions.
 */
public class RecoveryLogException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RecoveryLogException(String message) {
        super(message);
    }

    public RecoveryLogException(String message, Throwable cause) {
        super(message, cause);
    }
}
