package org.phalanx.requestmanager.cache;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.phalanx.requestmanager.analysis.Footprints;

/**
 * The cached reads of one table, indexed so that a write finds the reads it may change without
 * looking at the others: a write of {@code id = 7} visits the reads selected with {@code id = 7}
 * and those that fix no {@code id}, not the thousands selected with other ids.
 *
 * <p>Reads are grouped by the set of key columns they fix on the table (their shape: {@code {}}
 * for a scan, {@code {id}} for a point read...), which stays small; within a shape, by the
 * {@linkplain Footprints#equalityClass equality class} of each key value. Lookups return a
 * superset of the reads that conflict: the caller still checks each with {@link Conflicts}.
 *
 * @param <E> what is cached (the index only needs its identity)
 */
final class TableIndex<E> {
    private final Map<Set<String>, Shape<E>> shapes = new HashMap<>();

    boolean isEmpty() {
        return shapes.isEmpty();
    }

    void add(E entry, Touch read) {
        shapes.computeIfAbsent(read.keys().keySet(), Shape::new).add(entry, read);
    }

    void remove(E entry, Touch read) {
        Shape<E> shape = shapes.get(read.keys().keySet());
        if (shape != null && shape.remove(entry, read)) {
            shapes.remove(shape.columns);
        }
    }

    /**
     * Adds to {@code out} every read whose rows a write may have changed, given key values
     * every row the write touches holds ({@code holds}: column to value; empty when none is
     * known, which visits every read of the table).
     */
    void candidates(Map<String, Object> holds, Set<E> out) {
        for (Shape<E> shape : shapes.values()) {
            shape.candidates(holds, out);
        }
    }

    /** Reads fixing the same key columns. */
    private static final class Shape<E> {
        final Set<String> columns;
        final Set<E> all = new HashSet<>();
        final Map<String, ByValue<E>> byColumn = new HashMap<>();

        Shape(Set<String> columns) {
            this.columns = Set.copyOf(columns);
            for (String c : this.columns) {
                byColumn.put(c, new ByValue<>());
            }
        }

        void add(E entry, Touch read) {
            all.add(entry);
            for (Map.Entry<String, Object> k : read.keys().entrySet()) {
                byColumn.get(k.getKey()).add(entry, k.getValue());
            }
        }

        /** True when the shape is left empty. */
        boolean remove(E entry, Touch read) {
            all.remove(entry);
            for (Map.Entry<String, Object> k : read.keys().entrySet()) {
                byColumn.get(k.getKey()).remove(entry, k.getValue());
            }
            return all.isEmpty();
        }

        void candidates(Map<String, Object> holds, Set<E> out) {
            for (Map.Entry<String, Object> k : holds.entrySet()) {
                ByValue<E> index = byColumn.get(k.getKey());
                if (index != null) {
                    Set<E> found = index.mayEqual(k.getValue());
                    if (found != null) {
                        out.addAll(found);
                        return;
                    }
                }
            }
            out.addAll(all); // the write fixes none of these reads' keys (or none we can look up)
        }
    }

    /** One key column's values in one shape. */
    private static final class ByValue<E> {
        /** Equality class to the reads selected with a value of that class. */
        final Map<Object, Set<E>> byClass = new HashMap<>();
        /** Reads whose value has no equality class: they may equal anything of their kind. */
        final Set<E> unclassified = new HashSet<>();
        /** How many classified values of each kind (Number, String, Boolean) are held. */
        final Map<Class<?>, Integer> kinds = new HashMap<>();

        void add(E entry, Object value) {
            Object c = Footprints.equalityClass(value);
            if (c == null) {
                unclassified.add(entry);
                return;
            }
            byClass.computeIfAbsent(c, x -> new HashSet<>()).add(entry);
            kinds.merge(kind(c), 1, Integer::sum);
        }

        void remove(E entry, Object value) {
            Object c = Footprints.equalityClass(value);
            if (c == null) {
                unclassified.remove(entry);
                return;
            }
            Set<E> set = byClass.get(c);
            if (set != null && set.remove(entry)) {
                if (set.isEmpty()) {
                    byClass.remove(c);
                }
                kinds.computeIfPresent(kind(c), (k, n) -> n == 1 ? null : n - 1);
            }
        }

        /** The reads whose value may equal {@code value}; null when only a scan can tell. */
        Set<E> mayEqual(Object value) {
            Object c = Footprints.equalityClass(value);
            // values of another kind (a number against text) may compare equal in a database
            if (c == null || kinds.size() > 1 || (kinds.size() == 1 && !kinds.containsKey(kind(c)))) {
                return null;
            }
            Set<E> same = byClass.get(c);
            if (unclassified.isEmpty()) {
                return same == null ? Set.of() : same;
            }
            Set<E> found = new HashSet<>(unclassified);
            if (same != null) {
                found.addAll(same);
            }
            return found;
        }

        private static Class<?> kind(Object equalityClass) {
            return equalityClass instanceof Number ? Number.class : equalityClass.getClass();
        }
    }
}
