package org.phalanx.requestmanager.api;

/** What a driver that lost its controller is told about its last request ({@link RequestId}). */
public sealed interface RequestOutcome {

    /** The request's one unit is in the log: applied; {@code count} its update count, or -1 when not known. */
    record Applied(long count) implements RequestOutcome {
    }

    /** Nothing of the request is in the log, nor ever will be: sending it again is safe. */
    record NotApplied() implements RequestOutcome {
    }

    /** No safe answer: {@code why}. */
    record Unknown(String why) implements RequestOutcome {
    }
}
