package org.phalanx.requestmanager.distribution;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.SqlState;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.CloseableIterator;
import org.phalanx.recoverylog.EntryBytes;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.recoverylog.dump.Backupers;
import org.phalanx.recoverylog.dump.DumpException;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.RequestOutcome;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.PlacementRule;
import org.phalanx.requestmanager.config.ReplicationLevel;

/**
 * One controller's part in a distributed virtual database: primary-backup on the group's
 * replicated log (docs/distribution.md).
 *
 * <p>One data member at a time is the <em>primary</em>: it alone takes client sessions and runs
 * the request manager, whose recovery log is the group's ({@link ReplicatedRecoveryLog}): every
 * write, commit and rollback is acknowledged only once a majority of the controllers holds it.
 * Every member copies the committed entries into its own recovery log ({@link LocalLogCopy}), and
 * the others keep their own backends current from that copy ({@link FollowerCatchUp}).
 *
 * <p>Who is primary is decided in the log itself ({@link GroupEntry.Claim}, {@link PrimaryRole}), so
 * every member agrees at every index. When the primary is gone from the group's view (killed, cut
 * off), the first data member still connected claims the next epoch; once its claim is applied it
 * has every entry before it, brings its backends to the log's end (start-up crash recovery, which
 * also rolls back, through the log, the transactions the old primary left open) and takes
 * sessions. Entries of an epoch that is over are applied nowhere, so a deposed primary cannot
 * write behind its successor; a primary whose append fails (no majority, or deposed) steps down at
 * once. A witness member holds no backends and never claims: it only votes (and compacts its log,
 * its snapshot holding the role and the take-overs; as the log's leader it hands the leadership to a
 * data member rather than send that snapshot to a member behind, {@link BusyLeaderRaft}).
 *
 * <p>A data member compacts its copy of the group's log ({@link #compactLog}, or once it holds
 * {@code compactAfter} entries): it dumps one of its backends (one replicating partially, the union
 * of its backends, with a {@link PlacementRecord}), and its snapshot of the log carries that dump
 * and the entries after it ({@link GroupSnapshot}); a member that lacks what the dump replaced
 * restores it onto its backends before following again ({@link MemberDumps}), a partial member
 * each table where its own rules place it.
 *
 * <p>A member may declare backends of another member that it can reach ({@code standby}); the
 * primary takes them over when an operator says their owner is gone ({@link #takeOver}): a
 * {@link GroupEntry.Takeover} in the log, after which the primary brings them to the log's end by
 * their own records and serves with them, and their owner does not touch them until the primary
 * holding them gives them back ({@link #giveBack}): it stops using them, then a
 * {@link GroupEntry.GiveBack} in the log makes them the owner's again, which follows them by their
 * records. A member starts following only once a {@link GroupEntry.Sync} of its own is applied, so
 * that it knows, before touching any backend, which of them it holds.
 */
public final class GroupMember<P extends PrimaryDatabase> implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(GroupMember.class);
    static final byte APPLIED = 1;
    /** Vendor code of the refusal of a session by a member that is not the primary (the driver's Protocol.NOT_SERVED_HERE). */
    public static final int NOT_SERVED_HERE = 1;
    private static final byte[] APPLIED_ANSWER = {APPLIED};
    private static final byte[] REFUSED_ANSWER = {0};
    private static final long WATCH_NANOS = Duration.ofMillis(50).toNanos();
    /** How long a request's outcome is remembered: well above the driver's failover timeout (30 s by default). */
    static final Duration OUTCOME_RETENTION = Duration.ofMinutes(10);
    /** How long the role may stay free, as this member sees it, before it claims whoever the preferred member is. */
    static final Duration CLAIM_PATIENCE = Duration.ofSeconds(3);

    /**
     * Starts the request manager that serves sessions: the primary's, on the group's {@code log};
     * or, with a null log, a follower's for read-only sessions (no recovery log, no result cache:
     * its backends change under it by the log's replay).
     */
    @FunctionalInterface
    public interface PrimaryStarter<P> {
        /** @param backends the backends it serves with */
        P start(RecoveryLog log, List<BackendConfig> backends) throws SQLException;
    }

    /**
     * How a member behaves.
     *
     * @param appendTimeout how long an append may wait for a majority before its outcome counts as unknown;
     *                      also how long this member may see less than a majority of the group before it
     *                      stops serving sessions
     * @param minorityReads whether it serves read-only sessions all the same while it does
     * @param compactAfter  how many entries its copy of the group's log holds before it compacts it (0: only
     *                      when an operator asks)
     * @param sqlDialect    the SQL dialect the group's statements are written in, translated for backends of
     *                      other engines (null: that of the backends)
     * @param replication   how this member's own backends share the tables (RAIDb-1, SingleDB: each holds
     *                      every table; RAIDb-2, RAIDb-0: by {@code placement}, see {@link PartialPlacement})
     * @param placement     this member's CREATE TABLE placement rules (partial replication only)
     */
    public record Settings(Duration appendTimeout, boolean minorityReads, long compactAfter, Engine sqlDialect,
                           ReplicationLevel replication, List<PlacementRule> placement) {
        public Settings {
            placement = List.copyOf(placement);
        }
    }

    private final String virtualDatabase;
    private final GroupConfig config;
    private final Engine sqlDialect;
    /** Every backend this member declares: its own, and the standby ones of other members. */
    private final List<BackendConfig> backendConfigs;
    private final BackendHolders holders;
    /** Whether a sync mark of this member was applied since it last started following (see the class comment). */
    private volatile boolean synced;
    /** Counts the times this member stopped following: a sync mark appended before the last one does not count. */
    private volatile long followings;
    private CompletableFuture<byte[]> syncing = CompletableFuture.completedFuture(null);
    /** Where this member's tables are when its backends each hold only some (RAIDb-2, RAIDb-0); null otherwise. */
    private final PartialPlacement partialPlacement;
    /** Null on a witness. */
    private final LocalLogCopy copy;
    /** Null on a witness. */
    private final MemberDumps dumps;
    private LogCompaction compaction;
    /** When a restore of a received dump that failed is tried again. */
    private long restoreRetryAt;
    private final PrimaryStarter<P> starter;
    /**
     * Told the request manager when this controller starts serving, and null when it stops (before
     * the request manager shuts down: the controller closes the sessions' connections, so their
     * drivers fail over, and re-registers its management views).
     */
    private final Consumer<P> onPrimaryChange;
    private final String run = UUID.randomUUID().toString();
    private final Thread watcher;
    private ReplicatedLog log;
    private volatile PrimaryRole role = PrimaryRole.NONE;
    private volatile P primary;
    /** The primary's log while this member serves; null otherwise. */
    private volatile ReplicatedRecoveryLog primaryLog;
    /** The last logged request of each client connection, as long as a driver may ask about it. */
    /** Kept with the member's copy of the log (a witness, which serves nothing, keeps none across restarts). */
    private final OutcomeJournal outcomeJournal;
    private final RequestOutcomes outcomes;
    /** The epoch this member gave up (a failed append or start), not to be taken up again. */
    private volatile long givenUp = -1;
    private volatile boolean closed;
    private CompletableFuture<byte[]> claiming = CompletableFuture.completedFuture(null);
    /**
     * How long an append may wait for a majority, a read barrier for its sync mark, and this member
     * see less than a majority of the group before it stops serving sessions.
     */
    private final Duration appendTimeout;
    /** Whether read-only sessions are served all the same while it does. */
    private final boolean minorityReads;
    /** Since when this member has seen less than a majority of the group (System.nanoTime), or 0. */
    private volatile long minoritySince;
    /** Since when the role, at epoch {@link #freeEpoch}, has been free as this member sees it (nanoTime), or 0. */
    private long freeSince;
    private long freeEpoch;
    /** While this data member is not the primary; null otherwise. */
    private volatile Following<P> following;
    /** The sync entries of this member's read barriers, shared by those under way at once. */
    private final SharedSync syncs = new SharedSync(this::appendSync);

    private GroupMember(String virtualDatabase, GroupConfig config, List<BackendConfig> backendConfigs,
                        Map<String, String> standby, RecoveryLog local, PrimaryStarter<P> starter,
                        Consumer<P> onPrimaryChange, Settings settings) {
        this.holders = new BackendHolders(virtualDatabase, config.self(), backendConfigs, standby);
        this.virtualDatabase = virtualDatabase;
        this.appendTimeout = settings.appendTimeout();
        this.minorityReads = settings.minorityReads();
        this.sqlDialect = settings.sqlDialect();
        this.config = config;
        this.backendConfigs = List.copyOf(backendConfigs);
        this.outcomeJournal = local == null ? null : new OutcomeJournal(config.logDir().resolve("request-outcomes"));
        this.outcomes = new RequestOutcomes(OUTCOME_RETENTION, outcomeJournal);
        this.partialPlacement = settings.replication().isPartial() ? new PartialPlacement(backendConfigs,
                settings.replication(), settings.placement()) : null;
        EntryPlacement placement = partialPlacement != null ? partialPlacement : EntryPlacement.everywhere(
                backendConfigs.stream().map(BackendConfig::name).collect(Collectors.toSet()));
        this.copy = local == null ? null : new LocalLogCopy(local, placement, outcomes);
        if (copy != null && partialPlacement != null) {
            learnPlacement(partialPlacement);
        }
        this.dumps = local == null ? null
                : new MemberDumps(copy.local(), config.logDir().resolve("dumps"), config.groupName() + "-" + config.self());
        this.starter = starter;
        this.onPrimaryChange = onPrimaryChange;
        this.watcher = new Thread(this::watch, "phalanx-group-" + virtualDatabase);
        watcher.setDaemon(true);
    }

    /**
     * Under partial replication, where this member's tables are, learned again at a start from its
     * copy of the log (each entry names where it went), from its last {@link PlacementRecord} on; a
     * member that cannot learn it copies nothing more, neither follows nor claims (its copy is
     * damaged, logged).
     */
    private void learnPlacement(PartialPlacement placement) {
        try {
            placement.learn(copy.local(), PlacementRecord.load(copy.local()));
            LOG.info("virtual database {}: {} replicates partially: its copy of the group's log places its tables,"
                    + " up to position {}", virtualDatabase, config.self(), copy.local().lastPosition());
        } catch (SQLException e) {
            copy.damaged("member " + config.self() + " does not know where its tables are: " + e.getMessage());
        }
    }

    /**
     * Joins the group and starts following its log; this controller becomes primary when the log
     * says so.
     *
     * @param backendConfigs every backend this member declares, its own and the standby ones
     * @param standby        the standby backends (of other members, which this one can take over), with their owners
     * @param local          this controller's recovery log (its copy of the group's); null on a witness
     */
    public static <P extends PrimaryDatabase> GroupMember<P> start(String virtualDatabase, GroupConfig config,
                                                                   List<BackendConfig> backendConfigs,
                                                                   Map<String, String> standby, RecoveryLog local,
                                                                   Settings settings, PrimaryStarter<P> starter,
                                                                   Consumer<P> onPrimaryChange) throws Exception {
        if (config.me().witness() != (local == null)) {
            throw new IllegalArgumentException("a witness keeps no recovery log, and a data member needs one");
        }
        GroupMember<P> member = new GroupMember<>(virtualDatabase, config, backendConfigs, standby, local, starter,
                onPrimaryChange, settings);
        member.log = ReplicatedLog.start(config, member.new StateMachine(), settings.appendTimeout());
        member.compaction = new LogCompaction(virtualDatabase, config, member.log,
                settings.compactAfter(), member.watcher, member.copy == null
                ? LogCompaction.witness(virtualDatabase, config, member.log)
                : LogCompaction.withDump(virtualDatabase, config, member.log, member.copy, member.dumps,
                        member.partialPlacement, () -> member.primary, () -> member.following));
        member.watcher.start();
        LOG.info("virtual database {}: {} joined group {} ({})", virtualDatabase, config.self(), config.groupName(),
                config.me().witness() ? "a witness" : "a data member");
        return member;
    }

    // ------------------------------------------------------------------ the log's state machine

    private final class StateMachine implements ReplicatedLog.Applier {
        @Override
        public byte[] apply(long index, byte[] entry) throws Exception {
            return GroupMember.this.apply(index, entry);
        }

        @Override
        public void saveState(DataOutput out) throws IOException {
            GroupMember.this.saveState(out);
        }

        @Override
        public void loadState(DataInput in) throws IOException {
            GroupMember.this.loadState(in);
        }
    }

    private byte[] apply(long index, byte[] bytes) throws Exception {
        GroupEntry entry = GroupEntry.decode(bytes);
        if (entry instanceof GroupEntry.Claim claim) {
            PrimaryRole before = role;
            PrimaryRole after = before.after(claim);
            if (after == before) {
                return REFUSED_ANSWER;
            }
            role = after;
            LOG.info("virtual database {}: group {} epoch {}: {}", virtualDatabase, config.groupName(), after.epoch(),
                    after.member() == null ? claim.member() + " resigned as primary" : after.member() + " is primary");
            LockSupport.unpark(watcher);
            return APPLIED_ANSWER;
        }
        if (entry instanceof GroupEntry.Sync sync) {
            holders.synced(sync.member()); // it follows the log: backends may be given back to it
            return APPLIED_ANSWER; // its append completing tells the member that appended it all it needs
        }
        if (entry instanceof GroupEntry.Takeover t) {
            PrimaryRole now = role;
            if (t.epoch() != now.epoch() || !t.by().equals(now.member())) {
                return REFUSED_ANSWER; // its primary was deposed before the log ordered it
            }
            holders.apply(t);
            LOG.info("virtual database {}: group {}: {} holds backends {} of {} from here on", virtualDatabase,
                    config.groupName(), t.by(), t.backends(), t.owner());
            LockSupport.unpark(watcher);
            return APPLIED_ANSWER;
        }
        if (entry instanceof GroupEntry.GiveBack g) {
            PrimaryRole now = role;
            if (g.epoch() != now.epoch() || !g.by().equals(now.member())) {
                return REFUSED_ANSWER; // its primary was deposed before the log ordered it
            }
            holders.apply(g);
            LOG.info("virtual database {}: group {}: {} holds its backends {} again from here on (given back by {})",
                    virtualDatabase, config.groupName(), g.owner(), g.backends(), g.by());
            LockSupport.unpark(watcher);
            return APPLIED_ANSWER;
        }
        GroupEntry.Logged logged = (GroupEntry.Logged) entry;
        PrimaryRole now = role;
        if (logged.epoch() != now.epoch()) {
            return REFUSED_ANSWER; // written by a primary that was deposed before the log ordered it
        }
        if (copy != null) {
            try {
                copy.hand(EntryBytes.decode(logged.entry()), now.heldBy(config.self(), run));
            } catch (IOException | RuntimeException e) {
                copy.damaged("group log index " + index + " cannot be copied: " + e);
                throw e;
            }
        }
        return APPLIED_ANSWER;
    }

    /**
     * A snapshot of the log up to the last entry applied: the role, and on a data member its copy of
     * the recovery log from its dump on (or all of it, before its first dump).
     */
    private void saveState(DataOutput out) throws IOException {
        if (copy == null) {
            GroupSnapshot.writeRole(out, role, holders.state());
            return;
        }
        copy.settle(); // what was handed over is durable, so the copy can be read up to there
        RecoveryLog local = copy.local();
        MemberDumps.Dump dump = dumps.current();
        long purged = local.purgedThrough();
        boolean withDump = dump != null && dump.position() >= purged;
        long from = withDump ? dump.position() : purged;
        try (CloseableIterator<LogEntry> entries = local.read(from)) {
            GroupSnapshot.write(out, role, holders.state(), copy.handed(), from, withDump ? dump.file() : null, entries,
                    outcomes.remembered(from));
        }
    }

    /**
     * A snapshot in place of the entries it replaced: the leader's, for a member that lacks entries
     * it no longer holds, or this member's own, at a restart (its copy then holds all it carries).
     */
    private void loadState(DataInput in) throws IOException {
        GroupSnapshot snapshot = GroupSnapshot.read(in);
        role = snapshot.role();
        holders.state(snapshot.holders());
        LockSupport.unpark(watcher);
        if (copy == null) {
            return; // a witness keeps the role only
        }
        // also when the copy holds them all (a restart)
        outcomes.replacedBySnapshot(snapshot.from(), snapshot.remembered(), snapshot.entries());
        long handed = copy.handed();
        if (!snapshot.carriesLog()) {
            // a witness leader steps down instead of sending it (BusyLeaderRaft): not to be seen here
            copy.damaged("the group's log leader sent a witness's snapshot, which carries no recovery-log entries"
                    + " (this member's copy ends at position " + handed + ")");
            return;
        }
        if (snapshot.position() <= handed) {
            return; // its copy holds all of it
        }
        if (handed < snapshot.from()) {
            if (snapshot.dump() == null) {
                copy.damaged("the group's snapshot carries the log after position " + snapshot.from()
                        + " without a dump, and this member's copy ends at position " + handed);
                return;
            }
            dumps.received(snapshot.from(), snapshot.dump()); // restored onto the backends before they follow again
            if (partialPlacement != null) {
                placeDump(snapshot.from());
            }
            LOG.info("virtual database {}: {} received the group's dump at log position {} (its copy ended at {})",
                    virtualDatabase, config.self(), snapshot.from(), handed);
        }
        for (LogEntry e : snapshot.entries()) {
            copy.hand(e, false);
        }
    }

    /**
     * Under partial replication, the received dump's tables placed by this member's own rules: its
     * view starts there (the entries after the dump are placed from it), the restore puts each table
     * there and nowhere else, and the record of it is where a restart starts from.
     */
    private void placeDump(long position) {
        try {
            List<String> tables = Backupers.readInfo(dumps.pendingRestore().file()).tables().stream()
                    .map(DumpInfo.TableRows::name).toList();
            PlacementRecord placed = partialPlacement.restart(position, tables);
            placed.save(copy.local());
            LOG.info("virtual database {}: {} places the dump's tables by its rules: {}", virtualDatabase,
                    config.self(), placed.tables());
        } catch (DumpException | SQLException e) {
            copy.damaged("member " + config.self() + " cannot place the tables of the group's dump at log position "
                    + position + ": " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ the role, watched

    private void watch() {
        while (!closed) {
            try {
                step();
            } catch (RuntimeException e) {
                LOG.warn("virtual database {}: group member {}: {}", virtualDatabase, config.self(), e.toString(), e);
            }
            LockSupport.parkNanos(WATCH_NANOS);
        }
    }

    private void step() {
        PrimaryRole r = role;
        boolean mine = r.heldBy(config.self(), run);
        boolean cutOff = cutOff();
        if (primary != null && mine && cutOff && givenUp != r.epoch()) {
            // the others may have a new primary already: no stale reads here (no split brain), not even without writes
            givenUp = r.epoch();
            stopServing("it has seen less than a majority of group " + config.groupName() + " for "
                    + appendTimeout.toMillis() + " ms");
        }
        if (primary != null && (!mine || givenUp == r.epoch())) {
            stopServing(mine ? "it gives the primary role up (a failed append to the group's log, or an operator)"
                    : "the log names another primary");
        }
        if (closed) {
            return;
        }
        if (copy == null) {
            compaction.runIfDue(); // a witness only votes, and keeps its log short
            return;
        }
        if (mine && givenUp == r.epoch()) {
            claim(GroupEntry.Claim.resign(r.epoch() + 1, config.self()));
            return;
        }
        if (mine && primary == null) {
            startServing(r);
            return;
        }
        if (primary == null && holders.takeChange()) {
            stopFollowing(); // followed again with the backends it holds now
        }
        if (primary == null && !synced) {
            sync(r);
            return;
        }
        MemberDumps.Dump restore = dumps.pendingRestore();
        if (primary == null && restore != null) {
            restoreBackends(restore);
            return;
        }
        if (primary == null && following == null && copy.damage() == null) {
            following = newFollowing(null);
        }
        if (primary == null && following != null && copy.damage() == null) {
            following.step(cutOff && !minorityReads);
        }
        compaction.runIfDue();
        if (primary == null && isCandidate(r)) {
            claim(new GroupEntry.Claim(r.epoch() + 1, config.self(), run));
        }
    }

    /** Whether this member has seen less than a majority of the group (its JGroups view) for the grace time. */
    private boolean cutOff() {
        boolean majority = log.connected().size() * 2 > log.members().size();
        if (majority) {
            minoritySince = 0;
            return false;
        }
        long now = System.nanoTime();
        if (minoritySince == 0) {
            minoritySince = now;
        }
        return now - minoritySince >= appendTimeout.toNanos();
    }

    /** Whether this member can serve and should take the role ({@link PrimaryRole#shouldBeClaimedBy}). */
    private boolean isCandidate(PrimaryRole r) {
        Set<String> connected = log.connected();
        long now = System.nanoTime();
        if (!r.isFreeFor(config.self(), run, connected)) {
            freeSince = 0;
            return false;
        }
        if (freeSince == 0 || freeEpoch != r.epoch()) { // each epoch's role is waited for afresh (one resigned, say)
            freeSince = now;
            freeEpoch = r.epoch();
        }
        if (copy.damage() != null || dumps.pendingRestore() != null || !synced || holders.usable().isEmpty()) {
            return false; // a member whose backends were all taken over serves nothing
        }
        boolean overdue = now - freeSince > CLAIM_PATIENCE.toNanos();
        return r.shouldBeClaimedBy(config.self(), run, connected, config.dataMembers(), log.leader(), overdue);
    }

    private void claim(GroupEntry.Claim claim) {
        if (!claiming.isDone() || log.leader() == null) {
            return; // one claim at a time; none while no leader can commit it
        }
        claiming = log.append(claim.encode());
        claiming.whenComplete((v, e) -> LockSupport.unpark(watcher));
    }

    private void startServing(PrimaryRole r) {
        if (copy.damage() != null || dumps.pendingRestore() != null || !copy.settle()) {
            givenUp = r.epoch();
            return;
        }
        stopFollowing();
        holders.markHeldElsewhere(copy.local());
        long epoch = r.epoch();
        ReplicatedRecoveryLog groupLog = new ReplicatedRecoveryLog(log, copy, epoch, () -> {
            givenUp = epoch;
            LockSupport.unpark(watcher);
        });
        try {
            P rm = starter.start(groupLog, backendConfigs);
            primaryLog = groupLog;
            primary = rm;
            onPrimaryChange.accept(rm);
            LOG.info("virtual database {}: {} is the primary of group {} (epoch {}) and serves sessions from log"
                    + " position {}", virtualDatabase, config.self(), config.groupName(), epoch, rm.lastPosition());
            holders.adopt(rm, copy.local()); // taken over by this member before its last stop, not yet in service
        } catch (SQLException | RuntimeException e) {
            LOG.error("virtual database {}: {} could not start serving as primary of group {}: {}", virtualDatabase,
                    config.self(), config.groupName(), e.getMessage());
            givenUp = epoch;
            follow();
        }
    }

    private void stopServing(String why) {
        P rm = primary;
        primary = null;
        primaryLog = null;
        LOG.warn("virtual database {}: {} stops serving sessions: {}", virtualDatabase, config.self(), why);
        onPrimaryChange.accept(null);
        rm.shutdown(Duration.ofSeconds(1));
        follow();
    }

    /** Follows the log again, once a new sync mark of this member is applied. */
    private void follow() {
        followings++;
        synced = false;
    }

    private Following<P> newFollowing(MemberDumps.Dump restore) {
        holders.markHeldElsewhere(copy.local());
        holders.markHeldHere(copy.local()); // given back: followed by their own records
        return new Following<>(virtualDatabase, config.self(), holders.usable(), copy.local(), restore, starter,
                onPrimaryChange, sqlDialect, copy::lastSchemaChange, partialPlacement);
    }

    /** Appends a sync mark (one at a time; none while no leader can commit it, nor while its copy is damaged). */
    private void sync(PrimaryRole r) {
        if (!syncing.isDone() || log.leader() == null || copy.damage() != null) {
            return; // a member whose copy is damaged follows nothing: it says nothing (no backend is given back to it)
        }
        long round = followings;
        syncing = log.append(new GroupEntry.Sync(r.epoch(), config.self()).encode());
        syncing.whenComplete((v, e) -> {
            if (e == null && round == followings) {
                synced = true;
            }
            LockSupport.unpark(watcher);
        });
    }

    // ------------------------------------------------------------------ backends held

    /**
     * Operator action on the primary: the member {@code owner} is gone for good (its host lost, say),
     * and this one takes over the backends of it that it declares ({@code owner="..."}): the log
     * records that it holds them, then it brings each to the log's end by its own record of applied
     * positions and serves with it. The owner, if it ever comes back, leaves them alone. Refused
     * while the owner is connected to the group. Returns the backends taken into service.
     */
    public List<String> takeOver(String owner) throws SQLException {
        P rm = primary;
        PrimaryRole r = role;
        requirePrimary(rm, r, "backends are taken over by the primary");
        if (log.connected().contains(owner)) {
            throw new SQLException("member " + owner + " is connected to group " + config.groupName() + " and still"
                    + " uses its backends: stop it first", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        List<String> names = holders.standbyOf(owner);
        if (names.isEmpty()) {
            throw new SQLException("controller " + config.self() + " declares no backend of member " + owner
                    + " that it does not hold already (a <backend owner=\"" + owner + "\"> in its file)",
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        appendAsPrimary(new GroupEntry.Takeover(r.epoch(), owner, config.self(), names), "take-over");
        List<String> adopted = holders.adopt(rm, copy.local());
        if (!adopted.containsAll(names)) {
            throw new SQLException("controller " + config.self() + " holds backends " + names + " of " + owner
                    + " now, but took only " + adopted + " into service (see its log; restore a dump onto the others,"
                    + " then enable them)", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        return adopted;
    }

    /**
     * Operator action on the primary: gives the backends it took over from {@code owner} back to it,
     * now that it is back and follows the log (docs/distribution.md, Giving backends back). This
     * member first stops using them — every write queued on them runs, none after — then the log
     * records the give-back: from there on, on every member, they are {@code owner}'s, which brings
     * each to the log's end by its own record of applied positions and uses it again (as follower,
     * and as primary once it holds the role). Refused unless {@code owner} is connected and follows
     * the log (a sync mark of it applied since its backends were taken over), and this member holds
     * every backend taken from it. Returns the backends given back.
     */
    public List<String> giveBack(String owner) throws SQLException {
        P rm = primary;
        PrimaryRole r = role;
        requirePrimary(rm, r, "backends are given back by the primary that holds them");
        Map<String, String> taken = holders.takenFrom(owner);
        if (taken.isEmpty()) {
            throw new SQLException("no backend of member " + owner + " is taken over (that controller " + config.self()
                    + " declares with owner=\"" + owner + "\"): nothing to give back",
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        Map<String, String> elsewhere = new TreeMap<>(taken);
        elsewhere.values().removeIf(config.self()::equals);
        if (!elsewhere.isEmpty()) {
            // a follower's catch-up could not stop at the give-back's position, and would race the owner's
            throw new SQLException("backends of member " + owner + " are held by other members " + elsewhere
                    + ": only the primary holding them gives them back (hand the primary role to it first)",
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        if (!log.connected().contains(owner)) {
            throw new SQLException("member " + owner + " is not connected to group " + config.groupName()
                    + ": start it first, then give its backends back", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        if (!holders.follows(owner)) {
            throw new SQLException("member " + owner + " has not followed the log of group " + config.groupName()
                    + " since its backends were taken over (no sync mark of it applied: it is starting, or its copy"
                    + " of the log is damaged; see its log)", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        List<String> names = List.copyOf(taken.keySet());
        try {
            for (String name : names) {
                rm.releaseBackend(name, owner); // drained: it holds exactly the log up to a position before the entry
            }
        } catch (SQLException | RuntimeException e) {
            holders.adopt(rm, copy.local()); // nothing appended: this member still holds them all, and uses them again
            throw e;
        }
        try {
            appendAsPrimary(new GroupEntry.GiveBack(r.epoch(), owner, config.self(), names), "give-back");
        } catch (SQLException e) {
            // the entry's outcome is unknown (Raft may still commit it): this member steps down, as for a failed
            // write; whoever claims next has applied it or never will, and a primary start adopts what it still holds
            givenUp = r.epoch();
            LockSupport.unpark(watcher);
            throw new SQLException(e.getMessage() + "; backends " + names + " are out of service here and "
                    + config.self() + " steps down: the group's log decides who holds them", e.getSQLState(), e);
        }
        LOG.info("virtual database {}: {} gave backends {} back to {}", virtualDatabase, config.self(), names, owner);
        return names;
    }

    private void requirePrimary(P rm, PrimaryRole r, String why) throws SQLException {
        if (rm == null || !r.heldBy(config.self(), run)) {
            throw new SQLException("controller " + config.self() + " is not the primary of group " + config.groupName()
                    + (r.member() == null ? "" : " (" + r.member() + " is)") + ": " + why,
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
    }

    /** Appends an entry of this primary's epoch and waits until it is applied here; refused if its epoch is over. */
    private void appendAsPrimary(GroupEntry entry, String what) throws SQLException {
        byte[] answer;
        try {
            answer = log.append(entry.encode()).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", SqlState.OPERATION_CANCELED.code(), e);
        } catch (ExecutionException e) {
            throw new SQLException("the group's log did not record the " + what + ": " + e.getCause().getMessage(),
                    SqlState.IO_ERROR.code(), e.getCause());
        }
        if (answer == null || answer.length != 1 || answer[0] != APPLIED) {
            throw new SQLException("controller " + config.self() + " is no longer the primary of group "
                    + config.groupName(), SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
    }

    // ------------------------------------------------------------------ compaction

    /**
     * Operator action: compacts this member's copy of the group's log. A data member dumps one of
     * its backends and compacts up to the dump (its snapshot then carries the dump and the entries
     * after it), purges its recovery log as far as its checkpoints allow, and returns the dump's log
     * position; a witness compacts up to the last entry applied and returns the first index its log
     * still holds.
     */
    public long compactLog(Duration wait) throws SQLException {
        return compaction.request(wait);
    }

    /** Restores every backend from a dump received in a snapshot, then follows the log from there. */
    private void restoreBackends(MemberDumps.Dump restore) {
        long now = System.nanoTime();
        if (now - restoreRetryAt < 0) {
            return;
        }
        stopFollowing();
        following = newFollowing(restore);
        if (following.restored()) {
            dumps.restored();
        } else {
            restoreRetryAt = now + Duration.ofSeconds(5).toNanos();
        }
    }

    private void stopFollowing() {
        Following<P> f = following;
        following = null;
        if (f != null) {
            f.stop();
        }
    }

    // ------------------------------------------------------------------ what the controller asks

    /**
     * Whether request {@code number} of the client connection {@code session}, sent
     * {@code ageMillis} ago, was applied: asked of the primary by a driver that lost its controller
     * ({@link RequestOutcomes}). Ask only once that connection has ended on this controller.
     */
    public RequestOutcome requestOutcome(String session, long number, long ageMillis) {
        ReplicatedRecoveryLog serving = primaryLog;
        if (serving == null || serving.fenced()) {
            return new RequestOutcome.Unknown("this controller is not the primary of group " + config.groupName());
        }
        return outcomes.outcome(session, number, ageMillis);
    }

    /**
     * A session on the primary; a read-only one asked for elsewhere is served by this follower's
     * backends, as current as its copy of the log, or with {@code currentReads} as current as the
     * group at the start of each read (a read barrier, {@link #awaitCurrent}); any other 08004,
     * which makes the driver try the URL's next controller.
     */
    public Session openSession(String user, boolean readOnly, boolean currentReads) throws SQLException {
        P rm = primary;
        if (rm != null) {
            Session s = rm.openSession(user);
            if (readOnly) {
                s.setReadOnly(true);
            }
            return s;
        }
        Following<P> f = following;
        P reading = f == null ? null : f.readers();
        if (readOnly && reading != null) {
            return new FollowerReadSession(reading.openSession(user),
                    currentReads ? this::awaitCurrent : FollowerReadSession.ReadBarrier.NONE);
        }
        throw notServing();
    }

    /**
     * A read barrier on a follower: a sync mark through the group's log, applied here once every
     * entry committed before it is in this member's copy; then the backends catch up to the copy's
     * end. What any client saw committed before the call is then visible here.
     */
    private void awaitCurrent() throws SQLException {
        long deadline = System.nanoTime() + appendTimeout.toNanos();
        try {
            syncs.await().get(appendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", SqlState.OPERATION_CANCELED.code(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new SQLException("controller " + config.self() + " could not learn how far the log of group "
                    + config.groupName() + " reaches (no majority answered within " + appendTimeout.toMillis()
                    + " ms): read on another member", SqlState.IO_ERROR.code(), e);
        }
        Following<P> f = following;
        if (f == null) {
            throw notServing();
        }
        f.awaitCaughtUp(copy.handed(), deadline, () -> LockSupport.unpark(watcher));
    }

    private CompletableFuture<byte[]> appendSync() {
        return log.append(new GroupEntry.Sync(role.epoch(), config.self()).encode());
    }

    private SQLException notServing() {
        PrimaryRole r = role;
        String why = config.me().witness() ? "it is a witness of group " + config.groupName()
                : minoritySince != 0 ? "it sees less than a majority of group " + config.groupName()
                : "it is not the primary of group " + config.groupName()
                + (r.member() == null ? " (none is yet)" : " (" + r.member() + " is)");
        return new SQLException("controller " + config.self() + " does not serve virtual database " + virtualDatabase
                + ": " + why + "; connect to another controller of the group",
                SqlState.SQLSERVER_REJECTED_ESTABLISHMENT_OF_SQLCONNECTION.code(), NOT_SERVED_HERE);
    }

    /** The request manager while this controller is primary, else null. */
    public P primary() {
        return primary;
    }

    public boolean serves() {
        return primary != null;
    }

    /** The group as this member sees it. */
    public GroupStatus status() {
        PrimaryRole r = role;
        P rm = primary;
        Map<String, String> backends = new LinkedHashMap<>();
        if (rm != null) {
            rm.backendStates().forEach((name, state) -> backends.put(name, state.toString()));
        } else if (copy != null) {
            Following<P> f = following;
            if (f != null) {
                backends.putAll(f.states());
            }
        }
        return new GroupStatus(config.groupName(), config.self(), config.me().witness(), r.member(), r.epoch(),
                log.leader(), log.members(), List.copyOf(log.connected()), log.lastApplied(), log.commitIndex(),
                log.firstIndex(), dumps == null || dumps.current() == null ? -1 : dumps.current().position(),
                log.memberIndexes(),
                copy == null ? 0 : copy.local().lastPosition(), backends);
    }

    /**
     * Operator action on the primary: stop serving and resign, so that another data member takes
     * over (maintenance of this controller's host, say). Its clients fail over.
     */
    public void stepDown() throws SQLException {
        PrimaryRole r = role;
        if (primary == null || !r.heldBy(config.self(), run)) {
            throw new SQLException("controller " + config.self() + " is not the primary of group " + config.groupName()
                    + (r.member() == null ? "" : " (" + r.member() + " is)"), SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        givenUp = r.epoch();
        LockSupport.unpark(watcher);
    }

    /**
     * Operator action: adds {@code raftId} to the group's log configuration (it must be started with
     * a configuration naming every member, itself included); it receives the whole log and keeps its
     * backends current like any follower.
     */
    public void addMember(String raftId) throws SQLException {
        changeMembers(raftId, true);
    }

    /** Operator action: removes {@code raftId} from the group's log configuration. */
    public void removeMember(String raftId) throws SQLException {
        changeMembers(raftId, false);
    }

    private void changeMembers(String raftId, boolean add) throws SQLException {
        try {
            (add ? log.addMember(raftId) : log.removeMember(raftId)).get();
            LOG.info("virtual database {}: member {} {} group {} (members now {})", virtualDatabase, raftId,
                    add ? "added to" : "removed from", config.groupName(), log.members());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", SqlState.OPERATION_CANCELED.code(), e);
        } catch (Exception e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null
                    ? e.getCause() : e;
            throw new SQLException("could not " + (add ? "add " : "remove ") + raftId + (add ? " to" : " from")
                    + " group " + config.groupName() + " (its log leader is " + log.leader() + "): " + cause,
                    SqlState.IO_ERROR.code(), cause);
        }
    }

    /** Leaves the group: stops serving (waiting up to {@code wait} for requests in flight), closes the log. */
    public void close(Duration wait) {
        closed = true;
        LockSupport.unpark(watcher);
        try {
            watcher.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        P rm = primary;
        primary = null;
        if (rm != null) {
            rm.shutdown(wait);
        }
        stopFollowing();
        log.close();
        if (copy != null) {
            copy.local().close();
            outcomeJournal.close();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }

    /** Backend states as the request manager reports them, for the primary; empty elsewhere. */
    public Map<String, BackendState> backendStates() {
        P rm = primary;
        return rm == null ? Map.of() : rm.backendStates();
    }
}
