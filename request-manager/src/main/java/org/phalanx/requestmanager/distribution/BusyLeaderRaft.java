package org.phalanx.requestmanager.distribution;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;
import org.jgroups.annotations.Property;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.protocols.raft.election.BaseElection;
import org.jgroups.raft.util.CommitTable;

/**
 * jgroups-raft's RAFT, which also brings a member that is behind (restarted, or new) up to date
 * while the leader is busy. RAFT resends only once its queue has been idle for
 * {@code resend_interval}, and after each "entry not found" answer one entry at a time; under steady
 * writes its queue is never idle and every new entry gets such an answer from a member behind, so
 * that member never caught up (measured here: one restarted under a bank load of 8 clients stayed
 * 8000 entries behind; {@code ReplicatedLogTest}). This one, after handling a batch of requests and
 * at most every {@code resend_interval}, sends each member whose last answer was "not found" (or
 * "conflict") the next {@value #MAX_ENTRIES} entries it lacks in one message (or the snapshot, when the log no longer
 * holds them). Named in {@code raft-stack.xml} in place of {@code raft.RAFT}.
 *
 * <p>On a witness it sends no snapshot: a witness's carries no data, and a member that lacks entries
 * the witness compacted away needs a data member's dump. A witness that leads and would send one
 * steps down instead and starts an election, as jgroups-raft's own leader does when it is removed
 * from the group; {@link DataLeaderElection} then elects a data member as up to date as it, whose
 * snapshot carries a dump. If the witness alone holds the longest log it is elected again, and
 * steps down again at the next snapshot it would send once {@value #STEP_DOWN_PAUSE_MILLIS} ms have
 * passed, by when the data members have its last entries.
 */
public class BusyLeaderRaft extends RAFT {
    /** Its protocol id (RAFT's headers carry it), one no JGroups or jgroups-raft protocol uses. */
    private static final short ID = 1621;
    private static final int MAX_ENTRIES = 1000;
    private static final long STEP_DOWN_PAUSE_MILLIS = 1000;

    static {
        ClassConfigurator.addProtocol(ID, BusyLeaderRaft.class);
    }

    @Property(description = "Whether this member is a witness (it holds no data: it never sends a snapshot)")
    protected boolean witness;

    private long nextResend;
    /** Set on a witness leader that would have sent a snapshot: it steps down after this round. */
    private volatile boolean stepDownWanted;
    private long nextStepDown;

    @Override
    protected void process(List<Request> requests) {
        super.process(requests);
        long now = System.nanoTime();
        if (commit_table != null && now - nextResend >= 0) {
            nextResend = now + TimeUnit.MILLISECONDS.toNanos(resend_interval);
            commit_table.forEach(this::catchUp);
        }
    }

    @Override
    protected void processQueue() {
        super.processQueue();
        if (stepDownWanted) {
            stepDownWanted = false;
            stepDown();
        }
    }

    @Override
    protected void sendSnapshotTo(Address member) throws Exception {
        if (!witness) {
            super.sendSnapshotTo(member);
            return;
        }
        long now = System.nanoTime();
        if (isLeader() && now - nextStepDown >= 0) {
            nextStepDown = now + TimeUnit.MILLISECONDS.toNanos(STEP_DOWN_PAUSE_MILLIS);
            log.warn("%s: %s lacks entries this witness compacted away: it hands the log's leadership to a data member",
                    local_addr, member);
            stepDownWanted = true; // outside the round of resends that asked for it
        }
    }

    /** As jgroups-raft's leader does once removed from the group: no longer the leader, then an election. */
    private void stepDown() {
        if (!isLeader()) {
            return;
        }
        BaseElection election = RAFT.findProtocol(BaseElection.class, this, true);
        setLeaderAndTerm(null);
        if (election != null) {
            election.startVotingThread();
        }
    }

    private void catchUp(Address member, CommitTable.Entry e) {
        if (!e.sendSingleMessage()) {
            return; // its last answer was not "not found" or "conflict": what it lacks is on its way
        }
        if (e.nextIndex() < log().firstAppended() || e.nextIndex() > last_appended) {
            sendAppendEntriesMessage(member, e); // the snapshot, or RAFT's own handling
            return;
        }
        // its answer tells whether the entry before them matches; if not, RAFT steps back as usual
        resend(member, e.nextIndex(), Math.min(last_appended, e.nextIndex() + MAX_ENTRIES - 1));
    }
}
