package org.phalanx.requestmanager.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.config.CacheConfig.Granularity;
import org.phalanx.requestmanager.analysis.RowIdentity;

class TableIndexTest {

    private static Touch read(Map<String, Object> keys) {
        return new Touch("t", null, keys, false);
    }

    private static Touch update(Set<String> changes, Map<String, Object> keys) {
        return new Touch("t", changes, keys, false);
    }

    @Test
    void aWriteOfOneKeyVisitsTheReadsOfThatKeyAndThoseFixingNone() {
        TableIndex<String> index = new TableIndex<>();
        for (long id = 1; id <= 1000; id++) {
            index.add("id=" + id, read(Map.of("id", id)), List.of());
        }
        index.add("scan", read(Map.of()), List.of());
        index.add("by-category", read(Map.of("category", "books")), List.of());
        Touch write = update(Set.of("price"), Map.of("id", 7L));
        Set<String> found = new HashSet<>();
        index.candidates(write, Granularity.VALUE, found);
        assertEquals(Set.of("id=7", "scan", "by-category"), found);

        Set<String> all = new HashSet<>();
        index.candidates(write, Granularity.TABLE, all);
        assertEquals(1002, all.size(), "coarser granularities visit every read of the table");
    }

    @Test
    void emptiedShapesAreDropped() {
        TableIndex<String> index = new TableIndex<>();
        Touch r = read(Map.of("id", 1L));
        index.add("a", r, List.of());
        index.remove("a", r);
        assertTrue(index.isEmpty());
    }

    @Test
    void anUpdateOfAKeyVisitsTheListingsShowingThatKey() {
        TableIndex<String> index = new TableIndex<>();
        RowIdentity listing = new RowIdentity(Map.of("id", 0, "name", 1), Set.of("category", "end_date"));
        for (long category = 1; category <= 500; category++) {
            List<Object[]> rows = List.of(new Object[] {(int) category * 10, "a"}, new Object[] {(int) category * 10 + 1, "b"});
            index.add("category " + category, new Touch("t", null, Map.of("category", category), false, listing), rows);
        }
        Set<String> found = new HashSet<>();
        index.candidates(update(Set.of("max_bid"), Map.of("id", 71L)), Granularity.VALUE, found);
        assertEquals(Set.of("category 7"), found);

        index.remove("category 7", new Touch("t", null, Map.of("category", 7L), false, listing));
        found.clear();
        index.candidates(update(Set.of("max_bid"), Map.of("id", 71L)), Granularity.VALUE, found);
        assertEquals(Set.of(), found, "a removed entry leaves the index of shown values");

        found.clear();
        index.candidates(update(Set.of("end_date"), Map.of("id", 71L)), Granularity.VALUE, found);
        assertEquals(499, found.size(), "a write of a column that orders the listings may move rows into any of them");
    }

    /**
     * Random reads (some with a row identity and rows) and writes over values of every kind the
     * analysis produces (numbers equal across types and scales, text equal under case and
     * trailing spaces, text no collation rule covers, booleans, NULL, mixed kinds in one
     * column), with reads removed along the way: the index never misses a read that
     * {@link Conflicts} says a write may change.
     */
    @Test
    void neverMissesAConflictingRead() {
        Object[] values = {1L, 2L, 2, new BigDecimal("2.00"), new BigDecimal("2.5"), "a", "A  ", "b", "é", "2",
                true, false, null};
        String[] columns = {"id", "cat", "flag"};
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            TableIndex<Integer> index = new TableIndex<>();
            List<Touch> reads = new ArrayList<>();
            List<List<Object[]>> results = new ArrayList<>();
            Set<Integer> removed = new HashSet<>();
            for (int i = 0; i < 40; i++) {
                RowIdentity identity = random.nextBoolean() ? null : new RowIdentity(Map.of("id", 0, "cat", 1),
                        random.nextBoolean() ? Set.of("flag") : Set.of("flag", "cat"));
                List<Object[]> rows = new ArrayList<>();
                for (int n = random.nextInt(4); n > 0; n--) {
                    rows.add(new Object[] {values[random.nextInt(values.length)], values[random.nextInt(values.length)]});
                }
                Touch r = new Touch("t", null, nonNull(randomKeys(random, columns, values)), false, identity);
                reads.add(r);
                results.add(rows);
                index.add(i, r, rows);
            }
            for (int k = 0; k < 20; k++) {
                if (random.nextInt(4) == 0) {
                    int gone = random.nextInt(reads.size());
                    if (removed.add(gone)) {
                        index.remove(gone, reads.get(gone));
                    }
                }
                Set<String> changes = switch (random.nextInt(4)) {
                    case 0 -> null;
                    case 1 -> Set.of("v");
                    case 2 -> Set.of("v", "name");
                    default -> Set.of(columns[random.nextInt(columns.length)]);
                };
                Touch w = new Touch("t", changes, nonNull(randomKeys(random, columns, values)), random.nextInt(3) == 0);
                Set<Integer> found = new HashSet<>();
                index.candidates(w, Granularity.VALUE, found);
                for (int i = 0; i < reads.size(); i++) {
                    if (!removed.contains(i) && Conflicts.mayChange(Granularity.VALUE, w, reads.get(i), results.get(i))) {
                        assertTrue(found.contains(i), w + " may change " + reads.get(i));
                    }
                }
                assertTrue(java.util.Collections.disjoint(found, removed), "removed reads are not found");
            }
        }
    }

    /** Keys never hold NULL (the analysis drops it). */
    private static Map<String, Object> nonNull(Map<String, Object> keys) {
        keys.values().removeIf(java.util.Objects::isNull);
        return keys;
    }

    private static Map<String, Object> randomKeys(Random random, String[] columns, Object[] values) {
        Map<String, Object> keys = new HashMap<>();
        for (String c : columns) {
            if (random.nextInt(3) == 0) {
                keys.put(c, values[random.nextInt(values.length)]);
            }
        }
        return keys;
    }
}
