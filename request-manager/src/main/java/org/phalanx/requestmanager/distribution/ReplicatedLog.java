package org.phalanx.requestmanager.distribution;

import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.View;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.raft.RaftHandle;
import org.jgroups.raft.StateMachine;
import org.jgroups.raft.util.CommitTable;

/**
 * A log replicated on a group of controllers with jgroups-raft: an entry appended on any member is
 * committed once a majority of the group holds it, then applied on every member, one at a time, in
 * log order ({@link Applier}). A restarted member replays its own copy (from its last snapshot),
 * then catches up from the leader.
 *
 * <p>An append completes once the entry is applied <em>here</em>, with what the applier returned, so
 * the appending controller answers its client only when its own state has the entry. It fails if
 * no leader committed it within the timeout; the entry may still be committed later (a leader that
 * died holding it, then re-elected with it), so applying must be idempotent — the applier gets each
 * entry's index, which a state stored with its data can compare. Within the timeout an entry waits
 * for a leader when there is none, and is sent again — with every entry appended here and not yet
 * applied, in the order they were appended — when the leader changes: the one it went to may have
 * died without passing it on (jgroups-raft's REDIRECT forwards a request once, and a request lost
 * with its leader was never answered: the appending primary then stepped down although the group
 * had a new leader within seconds). An entry may therefore be committed twice; the applier sees
 * both (idempotent, as above).
 *
 * <p>{@link #compact()} replaces the log's applied part by a snapshot of the applier's state
 * ({@link Applier#saveState}); a member that lacks entries no longer in the leader's log receives
 * the leader's snapshot instead ({@link Applier#loadState}), as does a restarting member its own.
 */
public final class ReplicatedLog implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(ReplicatedLog.class);

    /** Applies committed entries, in log order, one at a time, on every member. */
    @FunctionalInterface
    public interface Applier {
        /** @return what the append of this entry completes with on the member that appended it */
        byte[] apply(long index, byte[] entry) throws Exception;

        /**
         * Writes what applying every entry so far made of the state, for a snapshot (called between
         * two applies, by the thread that applies). The default writes nothing: the log cannot be
         * compacted usefully.
         */
        default void saveState(DataOutput out) throws Exception {
        }

        /** Takes the state a snapshot holds, in place of applying the entries it replaces. */
        default void loadState(DataInput in) throws Exception {
        }
    }

    private final GroupConfig config;
    private final JChannel channel;
    private final RaftHandle raft;
    private final Applier applier;
    private final Duration timeout;
    /** Tells this run's entries from any other member's, or this member's before a restart. */
    private final String origin = UUID.randomUUID().toString();
    private final AtomicLong sequence = new AtomicLong();
    /** An entry appended here and not yet applied here: what it is sent as, and its append's future. */
    private record Appended(byte[] framed, CompletableFuture<byte[]> done) {
    }

    /** The entries appended here and not yet applied, by sequence number (the order they were appended in). */
    private final ConcurrentSkipListMap<Long, Appended> unapplied = new ConcurrentSkipListMap<>();
    /** The leader the entries in {@link #unapplied} were sent to (all of them, in order), or null: send them all. */
    private Address sentTo;
    /** The sequence number of the last entry sent to {@link #sentTo}. */
    private long sentUpTo;
    /**
     * A send failed: the next {@link #send} sends every entry not yet applied. A flag, not a call
     * under this object's lock: the failure is reported by jgroups-raft's threads, one of them holding
     * its own state lock (a leader stepping down when its view loses the majority fails its pending
     * entries there, in GMS's view thread), while {@link #send} holds this lock and asks jgroups-raft
     * for the leader — the two waited for each other for good, and with GMS's view thread stuck that
     * member never merged with the others again (a partition that never healed).
     */
    private volatile boolean sendFailed;
    private Future<?> resender;
    private volatile long applied;

    private ReplicatedLog(GroupConfig config, Applier applier, Duration timeout) throws Exception {
        this.config = config;
        this.applier = applier;
        this.timeout = timeout;
        this.channel = RaftStack.channel(config);
        this.raft = new RaftHandle(channel, new Machine()).raftId(config.self());
        raft.addRoleListener(role -> LOG.info("group {}: {} is now {} (leader {})", config.groupName(), config.self(),
                role, leader()));
    }

    /** Joins the group (the others need not be up yet: the log waits for a majority to elect a leader). */
    public static ReplicatedLog start(GroupConfig config, Applier applier, Duration timeout) throws Exception {
        ReplicatedLog log = new ReplicatedLog(config, applier, timeout);
        try {
            log.channel.connect(config.groupName());
        } catch (Exception e) {
            log.close();
            throw e;
        }
        log.resender = log.channel.getProtocolStack().getTransport().getTimer()
                .scheduleWithFixedDelay(log::send, RESEND_MILLIS, RESEND_MILLIS, TimeUnit.MILLISECONDS);
        return log;
    }

    /** How often entries waiting for a leader, or sent to one that is no longer, are looked at. */
    private static final long RESEND_MILLIS = 50;

    /** Appends an entry; completes once it is committed and applied here, with the applier's answer. */
    public CompletableFuture<byte[]> append(byte[] entry) {
        CompletableFuture<byte[]> done = new CompletableFuture<>();
        synchronized (this) { // numbered, kept and sent in one order: send() relies on it
            long seq = sequence.incrementAndGet();
            byte[] framed;
            try {
                framed = frame(seq, entry);
            } catch (IOException e) {
                done.completeExceptionally(e);
                return done;
            }
            unapplied.put(seq, new Appended(framed, done));
            done.whenComplete((v, e) -> unapplied.remove(seq));
            send();
        }
        return done.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Sends the current leader what it has not been sent: the entries appended since, or — when the
     * leader changed, or a send failed — every entry not yet applied here, in append order, so that
     * none sent to a leader that died is lost and none overtakes an earlier one. Nothing while there
     * is no leader in view: the resender looks again.
     */
    private synchronized void send() {
        if (unapplied.isEmpty()) {
            return;
        }
        if (sendFailed) {
            sendFailed = false;
            sentTo = null;
        }
        Address leader = raft.leader();
        View view = channel.getView();
        if (leader == null || view == null || !view.containsMember(leader)) {
            return;
        }
        Map<Long, Appended> toSend = leader.equals(sentTo) ? unapplied.tailMap(sentUpTo, false) : unapplied;
        sentTo = leader;
        for (Map.Entry<Long, Appended> e : toSend.entrySet()) {
            byte[] framed = e.getValue().framed();
            sentUpTo = e.getKey();
            try {
                raft.setAsync(framed, 0, framed.length, null).whenComplete((v, t) -> {
                    if (t != null) {
                        sendFailed = true; // not taken (the leader stepped down, say): all again, in order
                    }
                });
            } catch (Exception t) {
                sentTo = null;
                return;
            }
        }
    }

    /** The current leader's raft id, or null while there is none. */
    public String leader() {
        Address leader = raft.leader();
        return leader == null ? null : leader.toString();
    }

    public boolean isLeader() {
        return raft.isLeader();
    }

    /** jgroups-raft's RAFT of this member (tests put it in states that are hard to bring about). */
    RAFT raftProtocol() {
        return raft.raft();
    }

    /** The raft ids of the members this one is connected to (itself included). */
    public Set<String> connected() {
        View view = channel.getView();
        Set<String> ids = new LinkedHashSet<>();
        if (view != null) {
            view.getMembers().forEach(a -> ids.add(a.toString()));
        }
        return ids;
    }

    /** The members of the log's configuration (a majority of them must hold an entry to commit it). */
    public List<String> members() {
        return raft.raft().members();
    }

    /**
     * Adds a member to the log's configuration (through the leader); completes once the change is
     * committed. The new member then receives the whole log.
     */
    public CompletableFuture<byte[]> addMember(String raftId) throws Exception {
        return raft.addServer(raftId).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Removes a member from the log's configuration (through the leader). */
    public CompletableFuture<byte[]> removeMember(String raftId) throws Exception {
        return raft.removeServer(raftId).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The index of the last entry applied here. */
    public long lastApplied() {
        return raft.lastApplied();
    }

    /**
     * On the log's leader: how far each member's copy of the log reaches (its last index; the
     * leader's own is its last appended entry), by raft id; empty on the other members, which do
     * not know.
     */
    public Map<String, Long> memberIndexes() {
        Map<String, Long> indexes = new TreeMap<>();
        CommitTable table = raft.raft().commitTable();
        if (!raft.isLeader() || table == null) {
            return indexes;
        }
        table.forEach((member, entry) -> indexes.put(member.toString(), entry.matchIndex()));
        indexes.put(config.self(), raft.raft().lastAppended());
        return indexes;
    }

    /**
     * Replaces the entries applied here by a snapshot of the applier's state; returns once it is
     * taken. Each member compacts its own log; the leader sends its snapshot to a member that lacks
     * entries it no longer holds.
     */
    public void compact() throws Exception {
        raft.raft().snapshot();
    }

    /** The index of the first entry this member's log still holds (1 until it is compacted). */
    public long firstIndex() {
        return Math.max(1, raft.raft().log().firstAppended());
    }

    /** The index of the last entry known committed here. */
    public long commitIndex() {
        return raft.commitIndex();
    }

    public GroupConfig config() {
        return config;
    }

    @Override
    public void close() {
        if (resender != null) {
            resender.cancel(false);
        }
        unapplied.values().forEach(a -> a.done().completeExceptionally(new IllegalStateException("the replicated log is closed")));
        channel.close();
    }

    private byte[] frame(long seq, byte[] entry) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(entry.length + 64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(origin);
            out.writeLong(seq);
            out.write(entry);
        }
        return bytes.toByteArray();
    }

    /** The state machine jgroups-raft drives: unframes each committed entry and hands it to the applier. */
    private final class Machine implements StateMachine {
        @Override
        public byte[] apply(byte[] data, int offset, int length, boolean serializeResponse) throws Exception {
            ByteBuffer in = ByteBuffer.wrap(data, offset, length);
            byte[] originBytes = new byte[in.getShort() & 0xffff];
            in.get(originBytes);
            long seq = in.getLong();
            byte[] entry = new byte[in.remaining()];
            in.get(entry);
            long index = ++applied;
            byte[] answer;
            try {
                answer = applier.apply(index, entry);
            } catch (Exception | Error e) {
                if (origin.equals(new String(originBytes, StandardCharsets.UTF_8))) {
                    Appended mine = unapplied.get(seq);
                    if (mine != null) {
                        mine.done().completeExceptionally(e);
                    }
                }
                LOG.warn("group {}: applying entry {} failed on {}: {}", config.groupName(), index, config.self(),
                        e.toString());
                return null;
            }
            if (origin.equals(new String(originBytes, StandardCharsets.UTF_8))) {
                Appended mine = unapplied.get(seq);
                if (mine != null) {
                    mine.done().complete(answer);
                }
            }
            return null; // the answer goes to the appending member's own future, not over the network
        }

        /** Called by jgroups-raft when it takes a snapshot (at {@link #compact()}, or to send one). */
        @Override
        public void writeContentTo(DataOutput out) throws Exception {
            out.writeLong(applied);
            applier.saveState(out);
        }

        /** Called with a snapshot received from the leader, or with this member's own at a restart. */
        @Override
        public void readContentFrom(DataInput in) throws Exception {
            long index = in.readLong();
            applier.loadState(in);
            applied = index;
            LOG.info("group {}: {} took a snapshot of the log up to index {}", config.groupName(), config.self(), index);
        }
    }
}
