package org.phalanx.requestmanager.distribution;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.phalanx.recoverylog.RecoveryLog;

/**
 * Which of a partially replicating member's backends held which table at a log position
 * (docs/distribution.md, Partial replication in a group): where {@link PartialPlacement} starts
 * at a restart once the member's copy of the log no longer begins at the log's start. It is taken
 * with each dump the member makes (its view at the dump's position) and made when it receives a
 * dump (the dump's tables placed by its own rules); it is kept as a state of the member's local
 * recovery log, whose entries after {@code position} are never purged before it is replaced.
 *
 * @param position the log position the record reflects exactly
 * @param tables   backend name to the tables it holds (names as the view keeps them)
 */
record PlacementRecord(long position, Map<String, Set<String>> tables) {
    static final String STATE = "group.placement";

    PlacementRecord {
        Map<String, Set<String>> copy = new LinkedHashMap<>();
        tables.forEach((backend, names) -> copy.put(backend, Set.copyOf(names)));
        tables = java.util.Collections.unmodifiableMap(copy);
    }

    /** The tables every backend holds together. */
    Set<String> union() {
        Set<String> all = new TreeSet<>();
        tables.values().forEach(all::addAll);
        return all;
    }

    /** The member's record, or null if it has none (it never compacted nor received a dump). */
    static PlacementRecord load(RecoveryLog local) {
        return decode(local.states().get(STATE));
    }

    void save(RecoveryLog local) {
        local.putState(STATE, encode());
    }

    /** {@code position;backend=t1,t2;backend=...}, every name URL-encoded. */
    String encode() {
        StringBuilder s = new StringBuilder(Long.toString(position));
        tables.forEach((backend, names) -> {
            s.append(';').append(enc(backend)).append('=');
            s.append(String.join(",", new TreeSet<>(names).stream().map(PlacementRecord::enc).toList()));
        });
        return s.toString();
    }

    static PlacementRecord decode(String state) {
        if (state == null) {
            return null;
        }
        String[] parts = state.split(";", -1);
        Map<String, Set<String>> tables = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            String names = parts[i].substring(eq + 1);
            tables.put(dec(parts[i].substring(0, eq)), names.isEmpty() ? Set.of()
                    : Set.copyOf(List.of(names.split(",")).stream().map(PlacementRecord::dec).toList()));
        }
        return new PlacementRecord(Long.parseLong(parts[0]), tables);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String dec(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
