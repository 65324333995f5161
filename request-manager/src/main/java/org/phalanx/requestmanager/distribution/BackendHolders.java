package org.phalanx.requestmanager.distribution;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.recovery.BackendHolding;

/**
 * Which member holds each backend a member declares (docs/distribution.md, Taking over a member's
 * backends): its own backends, unless another member took them over; other members' ones
 * (standby), only once this member took them over. What was taken over comes from the group's log
 * ({@link GroupEntry.Takeover}) and its snapshots.
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

    BackendHolders(String virtualDatabase, String self, List<BackendConfig> declared, Map<String, String> standby) {
        this.virtualDatabase = virtualDatabase;
        this.self = self;
        this.declared = List.copyOf(declared);
        this.standby = Map.copyOf(standby);
    }

    /** Backends taken over so far, with their holders (what a snapshot carries). */
    Map<String, String> takenOver() {
        return takenOver;
    }

    /** As a snapshot says. */
    void takenOver(Map<String, String> holders) {
        if (!holders.equals(takenOver)) {
            takenOver = Map.copyOf(holders);
            changed = true;
        }
    }

    /** A take-over applied from the log. */
    void apply(GroupEntry.Takeover t) {
        Map<String, String> after = new TreeMap<>(takenOver);
        t.backends().forEach(b -> after.put(b, t.by()));
        takenOver = Map.copyOf(after);
        changed = true;
    }

    /** Whether a take-over was applied since the last call (a member may have to let a backend go). */
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
