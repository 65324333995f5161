package org.phalanx.requestmanager.verify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Agreement decides which replica is wrong (as for writes, see DESIGN.md): the value held by more
 * than half of the replicas is right and the others are the minority. Without such a value (two
 * replicas that differ, or a tie) nobody can tell: every replica is named and none is acted on.
 */
final class Majority {
    private Majority() {
    }

    /** What the replicas hold, by backend name; a null value is "absent" and counts like any other. */
    static <T> Optional<Holder<T>> of(Map<String, T> values) {
        Map<Holder<T>, Integer> counts = new LinkedHashMap<>();
        for (T v : values.values()) {
            counts.merge(new Holder<>(v), 1, Integer::sum);
        }
        for (Map.Entry<Holder<T>, Integer> e : counts.entrySet()) {
            if (e.getValue() * 2 > values.size()) {
                return Optional.of(e.getKey());
            }
        }
        return Optional.empty();
    }

    /** The backends whose value is not {@code majority}'s, in the map's order. */
    static <T> List<String> outvoted(Map<String, T> values, Holder<T> majority) {
        List<String> names = new ArrayList<>();
        values.forEach((name, v) -> {
            if (!Objects.equals(v, majority.value())) {
                names.add(name);
            }
        });
        return names;
    }

    /** A value that may be null (absent), comparable in a map. */
    record Holder<T>(T value) {
    }
}
