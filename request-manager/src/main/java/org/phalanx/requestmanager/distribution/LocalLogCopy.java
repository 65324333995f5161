package org.phalanx.requestmanager.distribution;

import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.recoverylog.RecoveryLogException;

/**
 * This controller's copy of the group's recovery-log entries: each committed entry, in log order,
 * handed to the local recovery log (which its backends are replayed from and recovered by). A
 * member replaying the replicated log after a restart hands over only what the copy lacks.
 *
 * <p>The primary's backends commit a unit only once its entry is durable here too (see
 * {@link ReplicatedRecoveryLog}), so after a crash no backend holds a position its own copy lacks.
 */
final class LocalLogCopy {
    private static final Logger LOG = LogManager.getLogger(LocalLogCopy.class);

    private final RecoveryLog local;
    /** The local log as the request manager and the follower's replay see it: what they count goes to {@link #outcomes}. */
    private final RecoveryLog view;
    private final RequestOutcomes outcomes;
    private final EntryPlacement placement;
    /** Durability of the entries this member appended itself, by position, until asked for. */
    private final Map<Long, CompletableFuture<Void>> own = new ConcurrentHashMap<>();
    /** Written by the applier only; read by others too (a follower's read barrier). */
    private volatile long handed;
    private volatile String damage;

    /** @param placement which of this member's backends each entry applies to */
    LocalLogCopy(RecoveryLog local, EntryPlacement placement, RequestOutcomes outcomes) {
        this.local = local;
        this.placement = placement;
        this.outcomes = outcomes;
        this.handed = local.lastPosition();
        this.view = new ForwardingRecoveryLog(local) {
            @Override
            public void counted(long position, long count, GeneratedKeys keys) {
                outcomes.counted(position, count, keys);
            }
        };
    }

    /** The local recovery log (what is counted there goes to the request outcomes). */
    RecoveryLog local() {
        return view;
    }

    /**
     * Called by the applier only (one entry at a time, in log order). An entry another member
     * appended names that member's backends; here it applies to those of this member's that its
     * placement says (all of them under full replication), so the copy names those: this member's
     * replay and crash recovery go by the names in its copy. An entry the placement cannot apply
     * damages the copy, which then takes nothing more: a restart meets the same entry again.
     */
    void hand(LogEntry entry, boolean appendedHere) {
        outcomes.logged(entry); // also on a replay after a restart: the client may ask about it still
        if (entry.position() <= handed) {
            return; // a replay after a restart: the copy has it
        }
        long position = entry.position();
        LogEntry placed = null;
        if (damage == null) {
            try {
                placed = placement.placed(entry, appendedHere);
            } catch (SQLException | RuntimeException e) {
                damaged("log position " + position + " cannot be applied to this member's backends by its placement ("
                        + e.getMessage() + "); the group's statements must be ones every member's placement can"
                        + " apply (docs/distribution.md, Partial replication in a group)");
            }
        }
        if (placed == null) {
            if (appendedHere) { // the primary's backends must not commit what its copy lacks
                own.put(position, CompletableFuture.failedFuture(new RecoveryLogException(damage)));
            }
            return;
        }
        handed = position;
        CompletableFuture<Void> durable = local.appendAsync(placed);
        if (appendedHere) {
            own.put(position, durable);
        }
        durable.whenComplete((v, e) -> {
            if (e != null) {
                damaged("the local recovery log refused log position " + position + ": " + e.getMessage());
            }
        });
    }

    /** The position of the last entry that changed which of this member's backends holds which table (-1: none). */
    long lastSchemaChange() {
        return placement.lastSchemaChange();
    }

    /** The last position handed to the copy. */
    long handed() {
        return handed;
    }

    /** When the entry this member appended at {@code position} is durable in its copy. */
    CompletableFuture<Void> durable(long position) {
        CompletableFuture<Void> f = own.remove(position);
        return f == null ? CompletableFuture.completedFuture(null) : f;
    }

    /** A copy with a hole cannot be replayed from: this member must not lead or follow any more. */
    void damaged(String why) {
        if (damage == null) {
            damage = why;
            LOG.error("{}; this controller stops following the group (docs/distribution.md, Failures)", why);
        }
    }

    /** Why the copy cannot be trusted, or null. */
    String damage() {
        return damage;
    }

    /** Waits until what was handed over is durable. */
    boolean settle() {
        return local.settle() && damage == null;
    }
}
