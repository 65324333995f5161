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
import org.phalanx.requestmanager.CacheConfig.Granularity;

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
            index.add("id=" + id, read(Map.of("id", id)));
        }
        index.add("scan", read(Map.of()));
        index.add("by-category", read(Map.of("category", "books")));
        Touch write = update(Set.of("price"), Map.of("id", 7L));
        Set<String> found = new HashSet<>();
        index.candidates(Conflicts.keysHeld(Granularity.VALUE, write), found);
        assertEquals(Set.of("id=7", "scan", "by-category"), found);

        Set<String> all = new HashSet<>();
        index.candidates(Conflicts.keysHeld(Granularity.TABLE, write), all);
        assertEquals(1002, all.size(), "coarser granularities visit every read of the table");
    }

    @Test
    void emptiedShapesAreDropped() {
        TableIndex<String> index = new TableIndex<>();
        Touch r = read(Map.of("id", 1L));
        index.add("a", r);
        index.remove("a", r);
        assertTrue(index.isEmpty());
    }

    /**
     * Random reads and writes over values of every kind the analysis produces (numbers equal
     * across types and scales, text equal under case and trailing spaces, text no collation
     * rule covers, booleans, mixed kinds in one column): the index never misses a read that
     * {@link Conflicts} says a write may change.
     */
    @Test
    void neverMissesAConflictingRead() {
        Object[] values = {1L, 2L, new BigDecimal("2.00"), new BigDecimal("2.5"), "a", "A  ", "b", "é", "2",
                true, false};
        String[] columns = {"id", "cat", "flag"};
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            TableIndex<Integer> index = new TableIndex<>();
            List<Touch> reads = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                Touch r = read(randomKeys(random, columns, values));
                reads.add(r);
                index.add(i, r);
            }
            for (int k = 0; k < 20; k++) {
                Set<String> changes = switch (random.nextInt(3)) {
                    case 0 -> null;
                    case 1 -> Set.of("v");
                    default -> Set.of(columns[random.nextInt(columns.length)]);
                };
                Touch w = new Touch("t", changes, randomKeys(random, columns, values), random.nextBoolean());
                Set<Integer> found = new HashSet<>();
                index.candidates(Conflicts.keysHeld(Granularity.VALUE, w), found);
                for (int i = 0; i < reads.size(); i++) {
                    if (Conflicts.mayChange(Granularity.VALUE, w, reads.get(i))) {
                        assertTrue(found.contains(i), w + " may change " + reads.get(i));
                    }
                }
            }
        }
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
