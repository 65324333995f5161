package org.phalanx.requestmanager.distribution;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.api.BatchOutcome;
import org.phalanx.requestmanager.api.RequestId;
import org.phalanx.requestmanager.api.RequestOutcome;
import org.phalanx.requestmanager.api.RequestOutcome.Applied;
import org.phalanx.requestmanager.api.RequestOutcome.BatchApplied;
import org.phalanx.requestmanager.api.RequestOutcome.NotApplied;
import org.phalanx.requestmanager.api.RequestOutcome.Unknown;
import org.phalanx.requestmanager.recovery.RememberedKeys;

/**
 * What this member knows of the last request each client connection had logged, from the group's
 * log as it is copied here: a driver that lost its controller while a write in auto-commit, a batch
 * or a commit was on its way asks the new primary about it, and retries only what was not applied
 * (exactly-once retries, docs/distribution.md).
 *
 * <p>Why "not logged" means "not applied": a driver asks only about its connection's last request,
 * and every unit a request logs carries its id. The primary answers once that connection has ended
 * here (its appends are then durable or fenced); entries an earlier primary appended are settled
 * for a new one: applied before its claim, or never. A batch run element by element logs one unit
 * an element, in order: the units in the log are the elements applied, those after them never will be.
 * A batch run as one transaction logs a write an element and the commit: applied if the commit is
 * logged, else never (the transaction was rolled back, or is by the next primary).
 *
 * <p>Each unit's update count (and generated keys) is learnt where it is applied here, and kept in
 * an {@link OutcomeJournal} so that a member restarted since still answers with them.
 */
final class RequestOutcomes {
    private static final Logger LOG = LogManager.getLogger(RequestOutcomes.class);

    /** One logged unit of a request: an auto-commit statement, a batch element, or a commit. */
    private static final class Unit {
        final long position;
        final boolean commit;
        long count = -1;
        GeneratedKeys keys;
        boolean failed;

        Unit(long position, boolean commit) {
            this.position = position;
            this.commit = commit;
        }
    }

    /** The last logged request of one client connection. */
    private static final class Last {
        final RequestId id;
        final long loggedAt;
        final List<Unit> units = new ArrayList<>(1);

        Last(RequestId id, long loggedAt) {
            this.id = id;
            this.loggedAt = loggedAt;
        }
    }

    /** Counts kept ahead of their entries at most (beyond, the oldest are dropped). */
    static final int MAX_PENDING = 100_000;

    private final long retentionNanos;
    private final OutcomeJournal journal;
    /** By client session id, oldest logged first (expiry walks from the front). */
    private final LinkedHashMap<String, Last> last = new LinkedHashMap<>();
    /** The statements of the requests in {@link #last}, by log position: their counts are still to come or kept. */
    private final Map<Long, Unit> statements = new HashMap<>();
    /**
     * Counts known before their entry is handed over here, by position: the journal's at start (the
     * copy's replay hands the entries over again), and the primary's, counted before its backends
     * commit, which may be before the group's log has committed the entry. Oldest first.
     */
    private final LinkedHashMap<Long, OutcomeJournal.Counted> pending = new LinkedHashMap<>();
    /** The last position handed over. */
    private long lastLogged;
    /**
     * When this member last learnt its log from a snapshot whose entries before it never reached
     * {@link #logged} and that carried no record of their requests (or the time its writer had learnt
     * its log so), or 0: a request sent before then that it does not know of may be among those, so it
     * is not answered "not applied".
     */
    private long snapshotAt;

    /**
     * @param retention how long a connection's last request is remembered after this member learnt
     *                  of it: a driver asks within its failover timeout, and anything older is answered
     *                  unknown
     */
    RequestOutcomes(Duration retention) {
        this(retention, null);
    }

    /** @param journal where counts are kept across a restart, or null: in memory only */
    RequestOutcomes(Duration retention, OutcomeJournal journal) {
        this.retentionNanos = retention.toNanos();
        this.journal = journal;
        if (journal != null) {
            journal.recalled().values().stream().sorted(Comparator.comparingLong(OutcomeJournal.Counted::position))
                    .forEach(c -> pending.put(c.position(), c));
        }
    }

    /**
     * The log up to a snapshot was replaced by it: its recovery-log entries ({@code entries}, those
     * after position {@code from}, its dump's) and what its writer remembered of the requests logged
     * up to {@code from} ({@code remembered}; null in a snapshot written before snapshots carried it)
     * are all this member learns of what came before.
     */
    synchronized void replacedBySnapshot(long from, RememberedRequests remembered, List<LogEntry> entries) {
        if (remembered != null) {
            learn(remembered);
        } else if (from > 0) {
            snapshotAt = System.nanoTime();
        }
        entries.forEach(this::logged);
    }

    /** What it remembers of the requests logged up to {@code position} (a snapshot's dump), for the snapshot. */
    synchronized RememberedRequests remembered(long position) {
        List<RememberedRequests.Request> requests = new ArrayList<>();
        for (Last l : last.values()) {
            List<RememberedRequests.Unit> units = l.units.stream().filter(u -> u.position <= position)
                    .map(u -> new RememberedRequests.Unit(u.position, u.count, u.failed, u.keys, u.commit)).toList();
            if (!units.isEmpty()) {
                requests.add(new RememberedRequests.Request(l.id, wallMillis(l.loggedAt), units));
            }
        }
        return new RememberedRequests(snapshotAt == 0 ? 0 : wallMillis(snapshotAt), requests);
    }

    /**
     * Takes what a snapshot's writer remembered, for the connections whose last request here is
     * older (or unknown), and its blind spot in place of this member's own: whatever this member did
     * not know of came before the snapshot's dump, which the writer's record covers.
     */
    private void learn(RememberedRequests remembered) {
        snapshotAt = remembered.blindSinceMillis() == 0 ? 0 : nanos(remembered.blindSinceMillis());
        boolean learnt = false;
        for (RememberedRequests.Request r : remembered.requests()) {
            Last known = last.get(r.id().session());
            if (known != null && known.id.number() > r.id().number()) {
                continue;
            }
            if (known != null && known.id.number() < r.id().number()) {
                known.units.forEach(u -> statements.remove(u.position));
                known = null;
            }
            Last l = known != null ? known : new Last(r.id(), nanos(r.loggedAtMillis()));
            for (RememberedRequests.Unit u : r.units()) {
                if (l.units.stream().anyMatch(k -> k.position == u.position())) {
                    continue; // known here already (its copy held it before it fell behind)
                }
                Unit unit = new Unit(u.position(), u.commit());
                unit.count = u.count();
                unit.keys = u.keys();
                unit.failed = u.failed();
                l.units.add(unit);
                statements.put(unit.position, unit);
            }
            l.units.sort(Comparator.comparingLong(u -> u.position));
            last.put(r.id().session(), l);
            learnt = true;
        }
        if (learnt) { // oldest first again, as expiry walks them
            List<Map.Entry<String, Last>> byAge = new ArrayList<>(last.entrySet());
            byAge.sort(Comparator.comparingLong(e -> e.getValue().loggedAt));
            last.clear();
            byAge.forEach(e -> last.put(e.getKey(), e.getValue()));
        }
    }

    /** A {@link System#nanoTime()} instant as wall-clock milliseconds (what outlives this process). */
    private static long wallMillis(long nanos) {
        return System.currentTimeMillis() - (System.nanoTime() - nanos) / 1_000_000;
    }

    private static long nanos(long wallMillis) {
        return System.nanoTime() - (System.currentTimeMillis() - wallMillis) * 1_000_000;
    }

    /** An entry the group's log committed, in log order (again after a restart: the copy's replay); once each. */
    synchronized void logged(LogEntry entry) {
        long now = System.nanoTime();
        expire(now);
        if (entry.position() <= lastLogged) {
            return; // seen already: in the snapshot this member started from, then replayed
        }
        lastLogged = entry.position();
        OutcomeJournal.Counted ahead = takePending(entry.position());
        if (entry.kind() == LogEntry.Kind.FAILED) {
            failed(entry.transactionId());
            return;
        }
        RequestId id = RequestId.parse(entry.requestId());
        if (id == null) {
            return;
        }
        Last known = last.remove(id.session());
        // the same request logging units of another kind: its batch ran as one transaction, which rolled
        // back, then element by element (what it logged first is not applied)
        if (known == null || known.id.number() != id.number() || known.id.units() != id.units()) {
            if (known != null) {
                known.units.forEach(u -> statements.remove(u.position));
            }
            known = new Last(id, now);
        }
        last.put(id.session(), known);
        boolean commit = entry.kind() == LogEntry.Kind.COMMIT;
        Unit unit = new Unit(entry.position(), commit);
        known.units.add(unit);
        if (commit) {
            unit.count = 0; // applied, nothing to count
        } else {
            statements.put(unit.position, unit);
            if (ahead != null) {
                unit.count = ahead.count();
                unit.keys = ahead.keys();
            }
        }
    }

    /**
     * The auto-commit statement (or element of a batch run as one transaction) at {@code position}
     * changed {@code count} rows where it was applied, and generated {@code keys}.
     */
    synchronized void counted(long position, long count, GeneratedKeys keys) {
        Unit unit = statements.get(position);
        if (unit == null && position > lastLogged) {
            keepPending(new OutcomeJournal.Counted(position, count, keys));
        }
        if (unit == null || unit.count >= 0) {
            return; // not a client's last request, or counted already (on another backend of this member)
        }
        unit.count = count;
        unit.keys = keys;
        if (journal != null) {
            journal.append(new OutcomeJournal.Counted(position, count, keys), this::counts);
        }
    }

    /**
     * The count kept ahead of the entry at {@code position}, or null; those of earlier positions are
     * dropped: entries are handed over in order, so theirs will not come (not a client's request, or
     * compacted away before a restart).
     */
    private OutcomeJournal.Counted takePending(long position) {
        OutcomeJournal.Counted found = null;
        for (Iterator<OutcomeJournal.Counted> it = pending.values().iterator(); it.hasNext(); ) {
            OutcomeJournal.Counted c = it.next();
            if (c.position() > position) {
                break;
            }
            if (c.position() == position) {
                found = c;
            }
            it.remove();
        }
        return found;
    }

    /** A count ahead of its entry (the primary's), kept (also in the journal) until the entry is handed over. */
    private void keepPending(OutcomeJournal.Counted c) {
        if (pending.putIfAbsent(c.position(), c) != null) {
            return;
        }
        if (pending.size() > MAX_PENDING) { // entries whose append failed are never handed over
            Iterator<Long> oldest = pending.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        if (journal != null) {
            journal.append(c, this::counts);
        }
    }

    /** The counts the journal must keep: those of the requests remembered now, and those ahead of their entries. */
    private synchronized List<OutcomeJournal.Counted> counts() {
        List<OutcomeJournal.Counted> kept = new ArrayList<>(pending.values());
        for (Unit u : statements.values()) {
            if (u.count >= 0) {
                kept.add(new OutcomeJournal.Counted(u.position, u.count, u.keys));
            }
        }
        return kept;
    }

    /** The write at {@code position} failed on every backend: nothing of it was applied. */
    private void failed(long position) {
        Unit unit = statements.get(position);
        if (unit != null) {
            unit.failed = true;
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
        if (known == null && snapshotAt != 0 && System.nanoTime() - ageMillis * 1_000_000 - snapshotAt < 0) {
            return new Unknown("this member learnt the log from a snapshot since the request was sent: the entries"
                    + " before it are not known here");
        }
        if (known == null || known.id.number() < number) {
            return new NotApplied();
        }
        if (known.id.number() > number) {
            return new Unknown("a later request of that connection (" + known.id.number() + ") was logged");
        }
        try {
            return switch (known.id.units()) {
                case ONE -> single(known);
                case ELEMENTS -> elements(known, false);
                case TRANSACTION -> known.units.stream().anyMatch(u -> u.commit)
                        ? elements(known, true) : new NotApplied();
            };
        } catch (SQLException e) {
            LOG.warn("The generated keys of request {} cannot be answered: {}", known.id, e.getMessage());
            return new Unknown("its generated keys cannot be read back: " + e.getMessage());
        }
    }

    private static RequestOutcome single(Last known) throws SQLException {
        if (known.units.size() > 1) {
            return new Unknown("it logged several units, any of which may be applied or not");
        }
        Unit unit = known.units.get(0);
        if (unit.failed) {
            return new NotApplied();
        }
        return new Applied(unit.count, unit.keys == null ? null : RememberedKeys.toResult(unit.keys));
    }

    /**
     * A batch: each logged element's count, the failed ones {@code EXECUTE_FAILED}; {@code whole}: run
     * as one transaction (its commit, logged, is not an element).
     */
    private static RequestOutcome elements(Last known, boolean whole) throws SQLException {
        List<Unit> elements = known.units.stream().filter(u -> !u.commit).toList();
        long[] counts = new long[elements.size()];
        BatchOutcome.Keys keys = known.id.wantsKeys() ? new BatchOutcome.Keys() : null;
        boolean keysKept = true;
        for (int i = 0; i < counts.length; i++) {
            Unit u = elements.get(i);
            counts[i] = u.failed ? Statement.EXECUTE_FAILED : u.count < 0 ? Statement.SUCCESS_NO_INFO : u.count;
            if (keys != null && !u.failed) {
                if (u.keys == null) {
                    keysKept = false;
                } else {
                    keys.add(RememberedKeys.toResult(u.keys));
                }
            }
        }
        return new BatchApplied(counts, keys == null || !keysKept ? null : keys.result(), whole);
    }

    private void expire(long now) {
        for (Iterator<Last> it = last.values().iterator(); it.hasNext(); ) {
            Last oldest = it.next();
            if (now - oldest.loggedAt < retentionNanos) {
                return;
            }
            oldest.units.forEach(u -> statements.remove(u.position));
            it.remove();
        }
    }
}
