package org.phalanx.recoverylog;

/**
 * An append whose fate this log cannot tell: it was handed on (to a group's replicated log) and
 * no answer came, so it may yet be applied elsewhere. The client must hear "outcome unknown", not
 * "not applied".
 */
public class OutcomeUnknownException extends RecoveryLogException {
    private static final long serialVersionUID = 1L;

    public OutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
