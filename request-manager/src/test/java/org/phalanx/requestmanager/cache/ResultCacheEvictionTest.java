package org.phalanx.requestmanager.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.rowset.RowSetMetaDataImpl;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.config.CacheConfig;

/** Bounds on entries and memory, and what eviction keeps. */
class ResultCacheEvictionTest {

    private static ResultCache cache(int maxEntries, long maxMemory) {
        return new ResultCache(new CacheConfig(maxEntries, maxMemory, 100, CacheConfig.Granularity.VALUE, List.of(),
                0, 0), () -> 0);
    }

    private static ResultCache.Decision lookup(ResultCache cache, long id) {
        return cache.lookup("SELECT v FROM t WHERE id = ?", List.of(id), 0,
                () -> List.of(new Touch("t", null, Map.of("id", id), false)), true);
    }

    private static void fill(ResultCache cache, long id, List<Object[]> rows) throws Exception {
        ResultCache.Miss miss = assertInstanceOf(ResultCache.Miss.class, lookup(cache, id));
        cache.store(miss.fill(), new RowSetMetaDataImpl(), rows);
    }

    private static boolean cached(ResultCache cache, long id) {
        ResultCache.Decision d = lookup(cache, id);
        if (d instanceof ResultCache.Miss miss) {
            cache.abandon(miss.fill(), false);
        }
        return d instanceof ResultCache.Hit;
    }

    @Test
    void theEntryLimitEvictsTheLeastRecentlyUsed() throws Exception {
        ResultCache cache = cache(3, 1 << 20);
        fill(cache, 1, List.of());
        fill(cache, 2, List.of());
        fill(cache, 3, List.of());
        assertInstanceOf(ResultCache.Hit.class, lookup(cache, 1)); // 1 used again: 2 is now the oldest
        fill(cache, 4, List.of());
        assertEquals(3, cache.statistics().entries());
        assertEquals(1, cache.statistics().evictions());
        assertEquals(List.of(true, false, true, true), List.of(cached(cache, 1), cached(cache, 2), cached(cache, 3),
                cached(cache, 4)));
    }

    @Test
    void theMemoryLimitHoldsAndEvictedEntriesLeaveTheIndex() throws Exception {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rows.add(new Object[] {"x".repeat(100)});
        }
        ResultCache cache = cache(1000, 10_000);
        for (long id = 1; id <= 20; id++) {
            fill(cache, id, rows);
            assertEquals(true, cache.statistics().memoryBytes() <= 10_000, "memory after " + id);
        }
        long kept = cache.statistics().entries();
        assertEquals(20 - kept, cache.statistics().evictions());
        // a write of an evicted key finds nothing to invalidate; one of a kept key finds its entry
        cache.invalidate(List.of(new Touch("t", java.util.Set.of("v"), Map.of("id", 1L), false)));
        assertEquals(0, cache.statistics().invalidations());
        cache.invalidate(List.of(new Touch("t", java.util.Set.of("v"), Map.of("id", 20L), false)));
        assertEquals(1, cache.statistics().invalidations());
        assertEquals(kept - 1, cache.statistics().entries());
    }
}
