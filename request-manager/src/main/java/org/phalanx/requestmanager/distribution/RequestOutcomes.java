package org.phalanx.requestmanager.distribution;

import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.api.RequestId;
import org.phalanx.requestmanager.api.RequestOutcome;
import org.phalanx.requestmanager.api.RequestOutcome.Applied;
import org.phalanx.requestmanager.api.RequestOutcome.NotApplied;
import org.phalanx.requestmanager.api.RequestOutcome.Unknown;

/**
 * What this member knows of the last request each client connection had logged, from the group's
 * log as it is copied here: a driver that lost its controller while a write in auto-commit or a
 * commit was on its way asks the new primary about it, and retries only what was not applied
 * (exactly-once retries, docs/distribution.md).
 *
 * <p>Why "not logged" means "not applied": a driver asks only about its connection's last request,
 * and every unit a request logs carries its id. The primary answers once that connection has ended
 * here (its appends are then durable or fenced); entries an earlier primary appended are settled
 * for a new one: applied before its claim, or never. A request known to have logged several units
 * (a batch run element by element) has no answer as a whole.
 */
final class RequestOutcomes {
    /** The last logged request of one client connection. */
    private static final class Last {
        final long number;
        final long position;
        final long loggedAt;
        boolean several;
        long count = -1;

        Last(RequestId id, long position, long loggedAt) {
            this.number = id.number();
            this.position = position;
            this.several = id.several();
            this.loggedAt = loggedAt;
        }
    }

    private final long retentionNanos;
    /** By client session id, oldest logged first (expiry walks from the front). */
    private final LinkedHashMap<String, Last> last = new LinkedHashMap<>();
    /** Positions whose update count is still to come, to their client session id. */
    private final Map<Long, String> awaitingCount = new HashMap<>();

    /**
     * @param retention how long a connection's last request is remembered after it was logged: a
     *                  driver asks within its failover timeout, and anything older is answered unknown
     */
    RequestOutcomes(Duration retention) {
        this.retentionNanos = retention.toNanos();
    }

    /** An entry the group's log committed, in log order. */
    synchronized void logged(LogEntry entry) {
        long now = System.nanoTime();
        expire(now);
        if (entry.kind() == LogEntry.Kind.FAILED) {
            failed(entry.transactionId());
            return;
        }
        RequestId id = RequestId.parse(entry.requestId());
        if (id == null) {
            return;
        }
        Last known = last.remove(id.session());
        if (known != null && known.number == id.number()) {
            known.several = true; // a second unit of the same request
            last.put(id.session(), known);
            return;
        }
        if (known != null) {
            awaitingCount.remove(known.position);
        }
        last.put(id.session(), new Last(id, entry.position(), now));
        if (entry.kind() == LogEntry.Kind.STATEMENT) {
            awaitingCount.put(entry.position(), id.session());
        } else {
            last.get(id.session()).count = 0; // a commit: applied, nothing to count
        }
    }

    /** The auto-commit statement at {@code position} changed {@code count} rows where it was applied. */
    synchronized void counted(long position, long count) {
        String session = awaitingCount.remove(position);
        Last known = session == null ? null : last.get(session);
        if (known != null && known.position == position) {
            known.count = count;
        }
    }

    /** The write at {@code position} failed on every backend: nothing of it was applied. */
    private void failed(long position) {
        String session = awaitingCount.remove(position);
        Last known = session == null ? null : last.get(session);
        if (known != null && known.position == position && !known.several) {
            last.remove(session);
        }
    }

    /**
     * Whether the request {@code number} of client session {@code session}, sent {@code ageMillis}
     * ago, was applied. Ask only once that connection has ended on this controller.
     */
    synchronized RequestOutcome outcome(String session, long number, long ageMillis) {
        expire(System.nanoTime());
        if (ageMillis < 0 || ageMillis * 1_000_000 >= retentionNanos) {
            return new Unknown("the request was sent " + ageMillis + " ms ago, longer than this controller remembers ("
                    + retentionNanos / 1_000_000 + " ms)");
        }
        Last known = last.get(session);
        if (known == null || known.number < number) {
            return new NotApplied();
        }
        if (known.number > number) {
            return new Unknown("a later request of that connection (" + known.number + ") was logged");
        }
        if (known.several) {
            return new Unknown("it logged several units (a batch run element by element), any of which may be"
                    + " applied or not");
        }
        return new Applied(known.count);
    }

    private void expire(long now) {
        for (Iterator<Last> it = last.values().iterator(); it.hasNext(); ) {
            Last oldest = it.next();
            if (now - oldest.loggedAt < retentionNanos) {
                return;
            }
            awaitingCount.remove(oldest.position);
            it.remove();
        }
    }
}
