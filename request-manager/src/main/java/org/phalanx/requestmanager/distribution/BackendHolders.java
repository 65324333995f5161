package org.phalanx.requestmanager.distribution;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.recovery.BackendHolding;

/**
 * Which member holds each backend a member declares (docs/distribution.md, Taking over a member's
 * backends): its own backends, unless another member took them over; other members' ones
 * (standby), only once this member took them over and until it gives them back. What was taken over
 * comes from the group's log ({@link GroupEntry.Takeover}, {@link GroupEntry.GiveBack}) and its
 * snapshots.
 */
final class BackendHolders {
    private static final Logger LOG = LogManager.getLogger(BackendHolders.class);

    private final String virtualDatabase;
    private final String self;
    private final List<BackendConfig> declared;
    /** Backends of other members this one declares, by name, with their owner. */
    private final Map<String, String> standby;
    /** Backends taken over, by name, with the member that holds each. */
    private volatile Map<String, String> takenOver = Map.of();
    private volatile boolean changed;
    /**
     * Members whose sync mark was applied since their backends were last taken over: they run and
     * follow the log with a whole copy (a member whose copy is damaged appends none), so backends
     * given back to them are used. Applied from the log like the rest, so a snapshot carries it.
     */
    private final Set<String> following = ConcurrentHashMap.newKeySet();

    /**
     * What applying the log makes of who holds what, as a snapshot carries it.
     *
     * @param takenOver backends taken over, by name, with the member holding each
     * @param following members that have followed the log since their backends were last taken over
     */
    record State(Map<String, String> takenOver, Set<String> following) {
        static final State NONE = new State(Map.of(), Set.of());

        State {
            takenOver = Map.copyOf(takenOver);
            following = Set.copyOf(following);
        }
    }

    BackendHolders(String virtualDatabase, String self, List<BackendConfig> declared, Map<String, String> standby) {
        this.virtualDatabase = virtualDatabase;
        this.self = self;
        this.declared = List.copyOf(declared);
        this.standby = Map.copyOf(standby);
    }

    /** What a snapshot carries. Changed only by applying the log (and its snapshots), on one thread. */
    State state() {
        return new State(takenOver, following);
    }

    /** As a snapshot says. */
    void state(State state) {
        if (!state.takenOver().equals(takenOver)) {
            takenOver = state.takenOver();
            changed = true;
        }
        following.retainAll(state.following());
        following.addAll(state.following());
    }

    /** A take-over applied from the log. */
    void apply(GroupEntry.Takeover t) {
        Map<String, String> after = new TreeMap<>(takenOver);
        t.backends().forEach(b -> after.put(b, t.by()));
        takenOver = Map.copyOf(after);
        following.remove(t.owner()); // its marks were from a run that is over (it was not connected)
        changed = true;
    }

    /** A give-back applied from the log: the backends its giver held are their owner's again. */
    void apply(GroupEntry.GiveBack g) {
        Map<String, String> after = new TreeMap<>(takenOver);
        g.backends().forEach(b -> after.remove(b, g.by()));
        takenOver = Map.copyOf(after);
        changed = true;
    }

    /** A sync mark of {@code member} applied from the log. */
    void synced(String member) {
        following.add(member);
    }

    /** Whether {@code member} has appended a sync mark since its backends were last taken over (see {@link #following}). */
    boolean follows(String member) {
        return following.contains(member);
    }

    /** Whether a take-over or a give-back was applied since the last call (a member may have to let a backend go, or use it again). */
    boolean takeChange() {
        boolean was = changed;
        changed = false;
        return was;
    }

    /** The member that took a backend over, else its owner (this member for its own). */
    String holderOf(String backend) {
        return takenOver.getOrDefault(backend, standby.getOrDefault(backend, self));
    }

    /** The backends this member may use now: its own that no other member took over, and those it took over. */
    List<BackendConfig> usable() {
        return declared.stream().filter(b -> holderOf(b.name()).equals(self)).toList();
    }

    /** The backends of {@code owner} that this member declares and does not hold yet, by name. */
    List<String> standbyOf(String owner) {
        return standby.entrySet().stream().filter(e -> e.getValue().equals(owner) && !holderOf(e.getKey()).equals(self))
                .map(Map.Entry::getKey).sorted().toList();
    }

    /**
     * The backends of {@code owner} that are taken over, by name, with the member holding each:
     * those this member declares as {@code owner}'s (standby), or its own when it is {@code owner}.
     */
    Map<String, String> takenFrom(String owner) {
        Map<String, String> taken = new TreeMap<>();
        for (BackendConfig b : declared) {
            String declaredOwner = standby.getOrDefault(b.name(), self);
            String holder = takenOver.get(b.name());
            if (declaredOwner.equals(owner) && holder != null && !holder.equals(owner)) {
                taken.put(b.name(), holder);
            }
        }
        return taken;
    }

    /**
     * Saves the backends this member holds that are still saved as held elsewhere as its own again
     * (given back): start-up and a follower's catch-up then bring each to the log's end by its own
     * record of applied positions. On the primary, {@link #adopt} does it instead.
     */
    void markHeldHere(RecoveryLog local) {
        for (BackendConfig b : usable()) {
            if (BackendHolding.heldHere(local, b.name())) {
                LOG.info("virtual database {}: backend {} is held by {} again: it follows the log by its own record",
                        virtualDatabase, b.name(), self);
            }
        }
    }

    /** Saves the others as held elsewhere in this member's log, so that neither start-up nor a catch-up touches them. */
    void markHeldElsewhere(RecoveryLog local) {
        for (BackendConfig b : declared) {
            String holder = holderOf(b.name());
            if (!holder.equals(self) && BackendHolding.heldElsewhere(local, b.name(), holder)) {
                LOG.info("virtual database {}: backend {} is held by member {}: {} leaves it alone", virtualDatabase,
                        b.name(), holder, self);
            }
        }
    }

    /** On the primary: puts into service the backends it holds that are still saved as held elsewhere. */
    synchronized List<String> adopt(PrimaryDatabase rm, RecoveryLog local) {
        List<String> adopted = new ArrayList<>();
        for (BackendConfig b : usable()) {
            if (!BackendHolding.isHeldElsewhere(local, b.name())) {
                continue;
            }
            try {
                rm.adoptBackend(b.name());
                adopted.add(b.name());
            } catch (SQLException | RuntimeException e) {
                LOG.error("virtual database {}: {} holds backend {} but could not take it into service: {}",
                        virtualDatabase, self, b.name(), e.getMessage());
            }
        }
        return adopted;
    }
}
