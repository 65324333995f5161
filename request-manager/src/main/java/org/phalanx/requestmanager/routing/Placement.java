package org.phalanx.requestmanager.routing;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.config.PlacementRule;
import org.phalanx.requestmanager.config.ReplicationLevel;
import org.phalanx.requestmanager.backend.Backend;

/** Applies the CREATE TABLE placement rules: the first rule matching the table name decides. */
public final class Placement {
    private final List<PlacementRule> rules;
    private final PlacementRule fallback;
    private final List<AtomicInteger> turns = new ArrayList<>();
    private final AtomicInteger fallbackTurn = new AtomicInteger();

    /** @param fallback the rule used when none matches */
    public Placement(List<PlacementRule> rules, PlacementRule fallback) {
        this.rules = List.copyOf(rules);
        this.fallback = fallback;
        for (int i = 0; i < rules.size(); i++) {
            turns.add(new AtomicInteger());
        }
    }

    /** The rules of a replication level: without a matching one, RAIDb-2 puts a new table everywhere and RAIDb-0 on one backend in turn. */
    public static Placement of(ReplicationLevel replication, List<PlacementRule> rules) {
        return new Placement(rules, replication == ReplicationLevel.RAIDB_0
                ? new PlacementRule(null, PlacementRule.Policy.ROUND_ROBIN, List.of(), 1, null)
                : new PlacementRule(null, PlacementRule.Policy.ALL, List.of(), 0, null));
    }

    /** The enabled backends a new table goes to. */
    public List<Backend> place(String table, List<Backend> enabled) throws SQLException {
        for (int i = 0; i < rules.size(); i++) {
            if (rules.get(i).matches(table)) {
                return apply(rules.get(i), turns.get(i), table, enabled);
            }
        }
        return apply(fallback, fallbackTurn, table, enabled);
    }

    private static List<Backend> apply(PlacementRule rule, AtomicInteger turn, String table, List<Backend> enabled)
            throws SQLException {
        List<Backend> pool = new ArrayList<>();
        for (Backend b : enabled) {
            if (rule.backends().isEmpty() || rule.backends().contains(b.name())) {
                pool.add(b);
            }
        }
        if (pool.isEmpty()) {
            throw new SQLException("cannot create table " + table + ": none of the backends its placement rule"
                    + where(rule) + " names is enabled", SqlState.CONNECTION_FAILURE.code());
        }
        switch (rule.policy()) {
            case ROUND_ROBIN: {
                int n = Math.min(rule.count(), pool.size());
                int start = Math.floorMod(turn.getAndIncrement(), pool.size());
                List<Backend> chosen = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    chosen.add(pool.get((start + i) % pool.size()));
                }
                return chosen;
            }
            case RANDOM: {
                List<Backend> shuffled = new ArrayList<>(pool);
                Collections.shuffle(shuffled, ThreadLocalRandom.current());
                return shuffled.subList(0, Math.min(rule.count(), shuffled.size()));
            }
            default:
                return pool; // BACKENDS (pool = those listed) and ALL
        }
    }

    private static String where(PlacementRule rule) {
        return rule.location() == null ? "" : " (" + rule.location() + ")";
    }
}
