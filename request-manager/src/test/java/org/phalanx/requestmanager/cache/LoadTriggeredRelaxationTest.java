package org.phalanx.requestmanager.cache;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import javax.sql.rowset.RowSetMetaDataImpl;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.config.CacheConfig;

/** Relaxed rules switch on at the high-water mark of pending requests and off below the low one. */
class LoadTriggeredRelaxationTest {
    private final AtomicInteger load = new AtomicInteger();
    private final ResultCache cache = new ResultCache(new CacheConfig(100, 1 << 20, 100, CacheConfig.Granularity.TABLE,
            List.of(new CacheConfig.Rule(Pattern.compile("items"), CacheConfig.Action.RELAXED, Duration.ofMinutes(1), "r")),
            10, 3), load::get);
    private static final String SQL = "SELECT * FROM items";
    private static final List<Touch> READS = List.of(Touch.wholeTable("items", false));
    private static final List<Touch> WRITES = List.of(Touch.wholeTable("items", true));

    private ResultCache.Decision lookup() {
        return cache.lookup(SQL, List.of(), 0, () -> READS, true);
    }

    private void fill() throws Exception {
        ResultCache.Miss miss = assertInstanceOf(ResultCache.Miss.class, lookup());
        cache.store(miss.fill(), new RowSetMetaDataImpl(), List.of());
    }

    @Test
    void relaxedOnlyUnderLoad() throws Exception {
        fill(); // light load: stored as an eager entry
        cache.invalidate(WRITES);
        ResultCache.Miss eager = assertInstanceOf(ResultCache.Miss.class, lookup(), "eager while the load is low");
        cache.abandon(eager.fill(), false);

        load.set(10); // high-water mark reached: relaxed
        fill();
        cache.invalidate(WRITES);
        assertInstanceOf(ResultCache.Hit.class, lookup(), "relaxed entries survive writes");
        load.set(5); // between the marks: stays relaxed (hysteresis)
        assertInstanceOf(ResultCache.Hit.class, lookup());
        load.set(2); // below the low-water mark: eager again, the relaxed entry no longer serves
        assertInstanceOf(ResultCache.Miss.class, lookup());
    }
}
