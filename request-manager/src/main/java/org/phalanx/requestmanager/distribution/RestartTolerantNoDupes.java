package org.phalanx.requestmanager.distribution;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;
import org.jgroups.annotations.Property;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.raft.NO_DUPES;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.util.ExtendedUUID;
import org.jgroups.util.Util;

/**
 * jgroups-raft's NO_DUPES, which lets a member restarted at once (kill -9, then start) join even while
 * the group's view still holds its dead incarnation. Stock NO_DUPES rejects such a join at once, and
 * the controller fails to start ("would create a view with duplicate members") although the old
 * incarnation is excluded a second or two later, when failure detection has verified it is gone.
 * Here the coordinator ignores a join whose raft id is in the view for a grace period (the joiner
 * asks again after its join timeout, by then usually into a view without the old incarnation), and
 * rejects it only after that, as stock NO_DUPES does: two live members configured with one raft id
 * still get the clear rejection, a grace period later. The grace period stays well below the
 * joiner's give-up time (GMS join_timeout × max_join_attempts), after which it would form a group
 * of its own. Named in {@code raft-stack.xml} in place of {@code raft.NO_DUPES}.
 */
public class RestartTolerantNoDupes extends NO_DUPES {
    @Property(description = "How long a join whose raft id is in the view is ignored before it is rejected (ms)")
    protected long grace = 15_000;

    /** When a join of each raft id in the view was first ignored (nanoTime). */
    private final Map<String, Long> firstIgnored = new ConcurrentHashMap<>();

    @Override
    protected boolean handleGmsHeader(GMS.GmsHeader hdr, Address sender) {
        boolean join = hdr.getType() == GMS.GmsHeader.JOIN_REQ || hdr.getType() == GMS.GmsHeader.JOIN_REQ_WITH_STATE_TRANSFER;
        if (!join || !(hdr.getMember() instanceof ExtendedUUID joiner)) {
            return super.handleGmsHeader(hdr, sender);
        }
        String raftId = Util.bytesToString(joiner.get(RAFT.raft_id_key));
        if (view == null || !contains(view, joiner)) {
            firstIgnored.remove(raftId);
            return super.handleGmsHeader(hdr, sender);
        }
        long now = System.nanoTime();
        long graceNanos = TimeUnit.MILLISECONDS.toNanos(grace);
        // an entry older than twice the grace period is from a joiner that gave up: this is a new one
        long first = firstIgnored.compute(raftId, (id, t) -> t == null || now - t > 2 * graceNanos ? now : t);
        if (now - first < graceNanos) {
            log.info("%s: join of %s ignored while the view (%s) still holds a member with raft id %s: it asks again",
                    local_addr, joiner, view, raftId);
            return false;
        }
        firstIgnored.remove(raftId);
        return super.handleGmsHeader(hdr, sender);
    }
}
