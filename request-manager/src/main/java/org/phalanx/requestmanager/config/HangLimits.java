package org.phalanx.requestmanager.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How much a backend may lag before it is taken out of service, so that one hung or far too slow
 * server can neither wedge clients nor fill the controller's memory (it is caught up later by the
 * usual replay).
 *
 * @param statementTimeLimit how long a statement may run on the backend before the backend must
 *                           prove it is alive: past half of it the controller opens a fresh
 *                           connection and asks for a validity check; a backend that has not answered
 *                           when the statement reaches the limit is hung and disabled. A backend that
 *                           answers is alive and its statement runs on (a statement that is merely
 *                           long is the client's business: its query timeout applies). Zero: never
 *                           checked.
 * @param maxQueuedWrites    writes, commits and rollbacks queued or running on the backend beyond
 *                           which it is disabled as too slow (0: no bound)
 * @param maxQueuedBytes     the same bound on the statements' and parameters' size (0: no bound)
 */
public record HangLimits(Duration statementTimeLimit, int maxQueuedWrites, long maxQueuedBytes) {
    /**
     * 30 s: far longer than a healthy server takes to accept a connection, short enough that
     * clients waiting on a hung one get their answer. 10,000 writes or 32 MB: a backend that far
     * behind is cheaper to catch up from the recovery log than to keep queueing for.
     */
    public static final HangLimits DEFAULTS = new HangLimits(Duration.ofSeconds(30), 10_000, 32L << 20);

    public HangLimits {
        Objects.requireNonNull(statementTimeLimit, "statementTimeLimit");
        if (statementTimeLimit.isNegative() || maxQueuedWrites < 0 || maxQueuedBytes < 0) {
            throw new IllegalArgumentException("statementTimeLimit, maxQueuedWrites and maxQueuedBytes cannot be negative: "
                    + statementTimeLimit + ", " + maxQueuedWrites + ", " + maxQueuedBytes);
        }
    }
}
