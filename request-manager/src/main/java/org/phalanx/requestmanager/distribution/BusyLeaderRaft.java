package org.phalanx.requestmanager.distribution;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.raft.RAFT;
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
 */
public class BusyLeaderRaft extends RAFT {
    /** Its protocol id (RAFT's headers carry it), one no JGroups or jgroups-raft protocol uses. */
    private static final short ID = 1621;
    private static final int MAX_ENTRIES = 1000;

    static {
        ClassConfigurator.addProtocol(ID, BusyLeaderRaft.class);
    }

    private long nextResend;

    @Override
    protected void process(List<Request> requests) {
        super.process(requests);
        long now = System.nanoTime();
        if (commit_table != null && now - nextResend >= 0) {
            nextResend = now + TimeUnit.MILLISECONDS.toNanos(resend_interval);
            commit_table.forEach(this::catchUp);
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
