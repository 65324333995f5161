package org.phalanx.requestmanager.cache;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.phalanx.requestmanager.config.CacheConfig.Granularity;
import org.phalanx.requestmanager.analysis.Footprints;
import org.phalanx.requestmanager.analysis.RowIdentity;

/**
 * The cached reads of one table, indexed so that a write finds the reads it may change without
 * looking at the others: a write of {@code id = 7} visits the reads selected with {@code id = 7}
 * and those that fix no {@code id}, not the thousands selected with other ids; and, for reads
 * whose rows map to the table's rows ({@link RowIdentity}), those showing a row with id 7.
 *
 * <p>Reads are grouped by the set of key columns they fix on the table (their shape: {@code {}}
 * for a scan, {@code {id}} for a point read...), which stays small; within a shape, by the
 * {@linkplain Footprints#equalityClass equality class} of each key value. Reads with a row
 * identity are grouped by it (one group per kind of listing) and, within a group, by the values
 * their rows show in a column, built the first time a write is restricted by that column.
 * Lookups return a superset of the reads that conflict: the caller still checks each with
 * {@link Conflicts}.
 *
 * @param <E> what is cached (the index only needs its identity)
 */
final class TableIndex<E> {
    private final Shapes<E> plain = new Shapes<>();
    private final Map<RowIdentity, RowGroup<E>> rowGroups = new HashMap<>();

    boolean isEmpty() {
        return plain.isEmpty() && rowGroups.isEmpty();
    }

    /** @param rows the stored result (used when the read has a row identity) */
    void add(E entry, Touch read, List<Object[]> rows) {
        if (read.rows() == null) {
            plain.add(entry, read);
        } else {
            rowGroups.computeIfAbsent(read.rows(), RowGroup::new).add(entry, read, rows);
        }
    }

    void remove(E entry, Touch read) {
        if (read.rows() == null) {
            plain.remove(entry, read);
            return;
        }
        RowGroup<E> group = rowGroups.get(read.rows());
        if (group != null && group.remove(entry, read)) {
            rowGroups.remove(read.rows());
        }
    }

    /** Adds to {@code out} every read the write may have changed at this granularity. */
    void candidates(Touch write, Granularity granularity, Set<E> out) {
        Map<String, Object> held = Conflicts.keysHeld(granularity, write);
        plain.candidates(held, out);
        for (RowGroup<E> group : rowGroups.values()) {
            group.candidates(write, held, out);
        }
    }

    /** Reads grouped by the key columns they fix. */
    private static final class Shapes<E> {
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
         * Adds every read whose rows a write may have changed, given key values every row the
         * write touches holds ({@code held}: column to value; empty visits every read).
         */
        void candidates(Map<String, Object> held, Set<E> out) {
            for (Shape<E> shape : shapes.values()) {
                shape.candidates(held, out);
            }
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

        void candidates(Map<String, Object> held, Set<E> out) {
            for (Map.Entry<String, Object> k : held.entrySet()) {
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

    /** Reads with the same row identity (the same kind of listing), with the values their rows show. */
    private static final class RowGroup<E> {
        final RowIdentity identity;
        final Shapes<E> shapes = new Shapes<>();
        final Map<E, List<Object[]>> rows = new HashMap<>();
        /** Shown column to the reads by the values their rows show there; built on first use. */
        final Map<String, ByValue<E>> byShown = new HashMap<>();

        RowGroup(RowIdentity identity) {
            this.identity = identity;
        }

        void add(E entry, Touch read, List<Object[]> result) {
            shapes.add(entry, read);
            rows.put(entry, result);
            byShown.forEach((column, index) -> index(index, entry, result, identity.shownAt().get(column)));
        }

        /** True when the group is left empty. */
        boolean remove(E entry, Touch read) {
            shapes.remove(entry, read);
            List<Object[]> result = rows.remove(entry);
            if (result != null) {
                byShown.forEach((column, index) -> {
                    int at = identity.shownAt().get(column);
                    for (Object[] row : result) {
                        index.remove(entry, row[at]);
                    }
                });
            }
            return rows.isEmpty();
        }

        /**
         * An UPDATE restricted to a column these reads show, changing nothing that decides
         * which rows they return, changes only those showing that value (see
         * {@link Conflicts#mayChange(Granularity, Touch, Touch, List)}); otherwise by key shape.
         */
        void candidates(Touch write, Map<String, Object> held, Set<E> out) {
            if (!write.rowsChange() && write.columns() != null
                    && Collections.disjoint(write.columns(), identity.selectedBy())) {
                for (Map.Entry<String, Object> k : held.entrySet()) {
                    Integer at = identity.shownAt().get(k.getKey());
                    if (at != null) {
                        Set<E> found = byShown.computeIfAbsent(k.getKey(), c -> build(at)).mayEqual(k.getValue());
                        if (found != null) {
                            out.addAll(found);
                            return;
                        }
                    }
                }
            }
            shapes.candidates(held, out);
        }

        private ByValue<E> build(int at) {
            ByValue<E> index = new ByValue<>();
            rows.forEach((entry, result) -> index(index, entry, result, at));
            return index;
        }

        private static <E> void index(ByValue<E> index, E entry, List<Object[]> result, int at) {
            for (Object[] row : result) {
                index.add(entry, row[at]);
            }
        }
    }

    /** One column's values, each with the reads holding it. */
    private static final class ByValue<E> {
        /** Equality class to the reads with a value of that class. */
        final Map<Object, Set<E>> byClass = new HashMap<>();
        /** Reads with a value that has no equality class (NULL, text a collation may equal to other text...). */
        final Map<E, Integer> unclassified = new HashMap<>();
        /** How many (read, class) pairs of each kind (Number, String, Boolean) are held. */
        final Map<Class<?>, Integer> kinds = new HashMap<>();

        void add(E entry, Object value) {
            Object c = Footprints.equalityClass(value);
            if (c == null) {
                unclassified.merge(entry, 1, Integer::sum);
            } else if (byClass.computeIfAbsent(c, x -> new HashSet<>()).add(entry)) {
                kinds.merge(kind(c), 1, Integer::sum);
            }
        }

        void remove(E entry, Object value) {
            Object c = Footprints.equalityClass(value);
            if (c == null) {
                unclassified.computeIfPresent(entry, (e, n) -> n == 1 ? null : n - 1);
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
            Set<E> found = new HashSet<>(unclassified.keySet());
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
