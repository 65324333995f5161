package org.phalanx.requestmanager.distribution;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Header;
import org.jgroups.MergeView;
import org.jgroups.View;
import org.jgroups.Message;
import org.jgroups.annotations.Property;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.raft.ELECTION2;
import org.jgroups.protocols.raft.RaftHeader;
import org.jgroups.protocols.raft.election.VoteResponse;
import org.jgroups.raft.util.Utils;

/**
 * jgroups-raft's ELECTION2, which elects a data member rather than a witness when both hold the
 * most up-to-date log. Raft lets any of the members with that log lead; stock ELECTION2 takes the
 * first in view order, often a witness. A witness that leads cannot bring a member whose copy lacks
 * entries it compacted away up to date (its snapshot carries no data), so it leads only when it
 * alone holds the longest log, and then steps down when a member needs a snapshot
 * ({@link BusyLeaderRaft}); the election that follows picks a data member. Named in
 * {@code raft-stack.xml} in place of {@code raft.ELECTION2}.
 *
 * <p>It also gives the group Raft's election timeout, which jgroups-raft's elections, started only
 * by view changes, lack: the view's coordinator, seeing a majority and no leader for
 * {@code leaderless_timeout} ms without an election under way, starts one; another member of the
 * group in that state five times as long asks the coordinator for one ({@link Leaderless}), since the coordinator may believe in a
 * leader that never learnt it was elected (seen after a merge: the coordinator elected the witness,
 * whose view did not yet hold the coordinator when the leader-elected message came, and the group
 * stayed leaderless for good). Without it a group could stay leaderless while its view stays the
 * same (an election round whose pre-vote lost an answer waits for it forever; a leader-elected
 * message lost).
 */
public class DataLeaderElection extends ELECTION2 {
    /** Its protocol id (its headers carry it), one no JGroups or jgroups-raft protocol uses. */
    private static final short ID = 1622;

    static {
        ClassConfigurator.addProtocol(ID, DataLeaderElection.class);
        ClassConfigurator.add(Leaderless.MAGIC, Leaderless.class);
    }

    /** A member's word to the view's coordinator: it has seen no leader for a while, with a majority in view. */
    public static final class Leaderless extends RaftHeader {
        /** Its magic id on the wire, one neither JGroups nor jgroups-raft uses. */
        static final short MAGIC = 1623;

        public Leaderless() {
        }

        Leaderless(long term) {
            super(term);
        }

        @Override
        public short getMagicId() {
            return MAGIC;
        }

        @Override
        public Supplier<? extends Header> create() {
            return Leaderless::new;
        }
    }

    @Property(description = "The raft ids of the group's witnesses, comma-separated")
    protected String witnesses = "";

    @Property(description = "How long (ms) the view's coordinator lets the group go without a leader, "
            + "while it sees a majority and no election is under way, before it starts one")
    protected long leaderless_timeout = 3000;

    /** How many {@code leaderless_timeout}s a member other than the coordinator waits before it asks for an election. */
    private static final int ASKING_AFTER_TIMEOUTS = 5;

    private Future<?> leaderWatch;
    /** When the coordinator last found the group leaderless after finding a leader (nanoTime), or 0. */
    private long leaderlessSince;
    /** The leader this member knew at the last look: each change is logged, so an outage can be followed. */
    private Address leaderSeen;

    @Override
    public void start() throws Exception {
        super.start();
        leaderWatch = getTransport().getTimer().scheduleWithFixedDelay(this::watchLeader, 500, 500, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (leaderWatch != null) {
            leaderWatch.cancel(false);
        }
        super.stop();
    }

    private void watchLeader() {
        Address leader = raft.leader();
        if (!Objects.equals(leader, leaderSeen)) {
            log.info("%s: the log's leader is now %s (term %d, view %s)", local_addr, leader == null ? "none" : leader,
                    raft.currentTerm(), view);
            leaderSeen = leader;
        }
        if (view == null || leader != null || !isMajorityAvailable() || isVotingThreadRunning()) {
            leaderlessSince = 0;
            return;
        }
        long now = System.nanoTime();
        boolean coordinator = isViewCoordinator();
        // another member waits longer: a joiner learns the leader once it is a member and the leader reaches it
        long patience = coordinator ? leaderless_timeout : ASKING_AFTER_TIMEOUTS * leaderless_timeout;
        if (leaderlessSince == 0) {
            leaderlessSince = now;
        } else if (now - leaderlessSince >= TimeUnit.MILLISECONDS.toNanos(patience)) {
            leaderlessSince = 0;
            if (coordinator) {
                log.warn("%s: the group has had no leader for %d ms while this coordinator sees a majority (%s): it starts an election",
                        local_addr, patience, view);
                startVotingThread();
            } else if (isMember(local_addr)) {
                log.warn("%s: no leader for %d ms with a majority in view (%s): it asks the coordinator for an election",
                        local_addr, patience, view);
                down_prot.down(new EmptyMessage(view.getCoord()).putHeader(id, new Leaderless(raft.currentTerm())));
            }
        }
    }

    /**
     * A merged view's coordinator holds an election unless it leads the log itself. The members of a
     * healed partition may name a leader that stepped down while they were cut off (a frozen majority
     * resumes still naming the leader that, alone meanwhile, gave the role up): stock ELECTION2 elects
     * after a merge only when the coordinator changed, so the group stayed leaderless until a member
     * asked for an election after {@code 5 * leaderless_timeout} (15 s), and writes stalled past the
     * partition tests' 30 s bound in a CI loop.
     */
    @Override
    protected void handleView(View v) {
        super.handleView(v);
        if (v instanceof MergeView && isViewCoordinator() && isMajorityAvailable() && !raft.isLeader()
                && !isVotingThreadRunning()) {
            log.info("%s: merged view %s: an election settles which leader the healed group follows", local_addr,
                    v.getViewId());
            startVotingThread();
        }
    }

    private boolean isMember(Address a) {
        return raft.members().contains(Utils.extractRaftId(a));
    }

    @Override
    protected void handleMessage(Message msg, RaftHeader hdr) {
        if (!(hdr instanceof Leaderless)) {
            super.handleMessage(msg, hdr);
            return;
        }
        // it may believe in a leader that does not know it leads: a new election settles it
        if (isViewCoordinator() && isMember(msg.getSrc()) && isMajorityAvailable() && !isVotingThreadRunning()) {
            log.warn("%s: %s has had no leader for %d ms (this coordinator saw %s lead): it starts an election",
                    local_addr, msg.getSrc(), ASKING_AFTER_TIMEOUTS * leaderless_timeout, raft.leader());
            startVotingThread();
        }
    }

    @Override
    protected Address determineLeader() {
        Address elected = electedAmongVotes();
        log.info("%s: votes %s elect %s", local_addr, getVotes().getResults(), elected);
        return elected;
    }

    private Address electedAmongVotes() {
        Address stock = super.determineLeader();
        if (stock == null || !isWitness(stock)) {
            return stock;
        }
        Map<Address, VoteResponse> votes = getVotes().getResults();
        byte[] best = answer(votes.get(stock));
        for (Address member : view.getMembersRaw()) {
            VoteResponse vote = votes.get(member);
            if (vote != null && !isWitness(member) && Arrays.equals(answer(vote), best)) {
                return member; // as up to date as the witness: a vote for the same term with the same last entry
            }
        }
        return stock;
    }

    private boolean isWitness(Address member) {
        return Arrays.asList(witnesses.split(",")).contains(Utils.extractRaftId(member));
    }

    /** A vote's answer as it goes over the network (its fields are not readable otherwise). */
    private static byte[] answer(VoteResponse vote) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            vote.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
