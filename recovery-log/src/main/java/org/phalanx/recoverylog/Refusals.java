package org.phalanx.recoverylog;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the log records about the entries it refused (could not make durable), so that it keeps
 * saying what its callers did: they roll back everything refused.
 *
 * <ul>
 *   <li>A refused STATEMENT is simply not in the log.</li>
 *   <li>A refused WRITE dooms its transaction: its later COMMIT is refused and recorded as a
 *       ROLLBACK.</li>
 *   <li>A refused COMMIT or ROLLBACK is owed as a ROLLBACK at its own position, a refused FAILED
 *       entry as itself: owed entries are written ahead of the next entries (positions stay in
 *       order), or by the writer's retry, once the storage takes writes again. Without them a
 *       transaction whose writes are in the log would stay open there, and replay would hold its
 *       locks; a FAILED entry lost would make replay take an agreed failure for a divergence.</li>
 *   <li>A transaction none of whose entries is in the log owes nothing; nor does a FAILED entry
 *       about a refused unit (that unit is not in the log).</li>
 * </ul>
 *
 * <p>Used under the group commit's lock only.
 */
final class Refusals {
    /** How many refused units are remembered for the FAILED entries that may follow them. */
    private static final int REMEMBERED_UNITS = 10_000;

    /** What to store for an entry handed over, and the refusal its caller gets instead of success. */
    record Admission(LogEntry stored, RecoveryLogException refusal) {
    }

    /** Transactions whose entries this log has written or refused, to whether one of them is durable. */
    private final Map<Long, Boolean> transactions = new HashMap<>();
    /** Transactions whose WRITE was refused, to that refusal: they cannot commit. */
    private final Map<Long, RecoveryLogException> doomed = new HashMap<>();
    /** Recently refused units (statements, commits). */
    private final TreeSet<Long> refusedUnits = new TreeSet<>();
    /** Entries owed to the log, by position. */
    private final TreeMap<Long, LogEntry> owed = new TreeMap<>();

    /** Decides, when an entry is handed over, what is stored for it ({@code stored} null: nothing). */
    Admission admit(LogEntry e) {
        switch (e.kind()) {
            case COMMIT: {
                RecoveryLogException why = doomed.remove(e.transactionId());
                if (why != null) {
                    rememberUnit(e.position()); // not committed: a FAILED entry about it records nothing
                    RecoveryLogException refusal = refusal(why, "transaction " + e.transactionId()
                            + " cannot commit (log position " + e.position() + "): " + why.getMessage());
                    return new Admission(LogEntry.rollback(e.position(), e.transactionId(), e.login(), e.backends()),
                            refusal);
                }
                break;
            }
            case ROLLBACK:
                doomed.remove(e.transactionId());
                break;
            case FAILED:
                if (refusedUnits.remove(e.transactionId())) {
                    return new Admission(null, null);
                }
                break;
            default:
                break;
        }
        return new Admission(e, null);
    }

    /** The batch to write for a group: what is owed first (their positions are lower). */
    List<LogEntry> batch(List<LogEntry> group) {
        if (owed.isEmpty()) {
            return group;
        }
        List<LogEntry> batch = new ArrayList<>(owed.values());
        batch.addAll(group);
        return batch;
    }

    /** Whether entries are owed to the log. */
    boolean owing() {
        return !owed.isEmpty();
    }

    /** A batch (owed entries included) is durable. */
    void durable(List<LogEntry> batch) {
        owed.clear();
        for (LogEntry e : batch) {
            switch (e.kind()) {
                case WRITE -> transactions.put(e.transactionId(), true);
                case COMMIT, ROLLBACK -> transactions.remove(e.transactionId());
                default -> {
                }
            }
        }
    }

    /** A group's entries were refused with {@code why} (what was owed stays owed). */
    void refused(List<LogEntry> group, RecoveryLogException why) {
        for (LogEntry e : group) {
            long tx = e.transactionId();
            switch (e.kind()) {
                case STATEMENT -> rememberUnit(e.position());
                case WRITE -> {
                    transactions.putIfAbsent(tx, false);
                    doomed.putIfAbsent(tx, refusal(why, "its write at log position " + e.position()
                            + " was not logged: " + why.getMessage()));
                }
                case COMMIT, ROLLBACK -> {
                    if (e.kind() == LogEntry.Kind.COMMIT) {
                        rememberUnit(e.position());
                    }
                    doomed.remove(tx);
                    // unknown here (begun before the log was opened): owed, to be safe
                    if (!Boolean.FALSE.equals(transactions.remove(tx))) {
                        owed.put(e.position(), LogEntry.rollback(e.position(), tx, e.login(), e.backends()));
                    }
                }
                case FAILED -> owed.put(e.position(), e);
            }
        }
    }

    private void rememberUnit(long position) {
        refusedUnits.add(position);
        if (refusedUnits.size() > REMEMBERED_UNITS) {
            refusedUnits.pollFirst();
        }
    }

    /** A refusal of the same kind (a full disk stays a full disk) with its own message. */
    static RecoveryLogException refusal(RecoveryLogException like, String message) {
        return like instanceof LogFullException ? new LogFullException(message, like)
                : new RecoveryLogException(message, like);
    }
}
