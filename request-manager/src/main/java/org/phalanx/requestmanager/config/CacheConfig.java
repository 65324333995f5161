package org.phalanx.requestmanager.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The optional result cache of a virtual database.
 *
 * @param maxEntries     entries kept at most (least recently used evicted first)
 * @param maxMemoryBytes estimated bytes of cached rows kept at most
 * @param maxEntryRows   results with more rows are not cached
 * @param granularity    how precisely writes invalidate entries
 * @param rules          tried in order against the SQL text; the first match decides; without
 *                       a match a read is cached eagerly
 * @param relaxedHighWater when positive, relaxed rules apply only once the backends' pending
 *                       requests reach this many, and stop again below {@code relaxedLowWater}
 */
public record CacheConfig(int maxEntries, long maxMemoryBytes, int maxEntryRows, Granularity granularity,
                          List<Rule> rules, int relaxedHighWater, int relaxedLowWater) {

    public CacheConfig {
        Objects.requireNonNull(granularity, "granularity");
        if (maxEntries < 1 || maxMemoryBytes < 1 || maxEntryRows < 0 || relaxedHighWater < 0 || relaxedLowWater < 0) {
            throw new IllegalArgumentException("cache sizes must be positive and water marks not negative: "
                    + maxEntries + ", " + maxMemoryBytes + ", " + maxEntryRows + ", " + relaxedHighWater + ", "
                    + relaxedLowWater);
        }
        rules = List.copyOf(rules);
    }

    public enum Granularity {
        /** Any write invalidates every entry. */
        DATABASE,
        /** A write invalidates the entries reading its table. */
        TABLE,
        /** ... that read a column it changes, or any row of it when it adds or removes rows. */
        COLUMN,
        /** ... and not those restricted to other values of a key column the write is restricted to. */
        VALUE
    }

    public enum Action {
        /** Never cached. */
        NO_CACHING,
        /** Cached; invalidated by every write that may change it (strong consistency). */
        EAGER,
        /** Cached without invalidation, served until {@link Rule#staleness()} old. */
        RELAXED
    }

    /** @param pattern matched (find) against the SQL text; {@code location} is where the rule is written */
    public record Rule(Pattern pattern, Action action, Duration staleness, String location) {
    }

    public static CacheConfig defaults() {
        return new CacheConfig(10_000, 64L * 1024 * 1024, 1000, Granularity.TABLE, List.of(), 0, 0);
    }
}
