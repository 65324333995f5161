package org.phalanx.requestmanager.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.phalanx.requestmanager.analysis.SqlTemplate;

/**
 * SQL statistics per statement template (literals stripped, {@link SqlTemplate}): count, errors,
 * time and cache hits.
 *
 * <p>On the request path: one map lookup by SQL text (the template is computed once per distinct
 * text) and a few {@link LongAdder} increments; no lock. Both maps are bounded: past
 * {@link #MAX_TEXTS} texts the text map starts over (templates are computed again on demand),
 * past {@link #MAX_TEMPLATES} templates new ones are counted under {@link #OTHER}.
 */
public final class StatementStatistics {
    static final int MAX_TEXTS = 10_000;
    static final int MAX_TEMPLATES = 1_000;
    /** Where statements of templates beyond the limit are counted. */
    public static final String OTHER = "(other statements)";

    private final ConcurrentHashMap<String, Counters> byText = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counters> byTemplate = new ConcurrentHashMap<>();
    private final Counters other = new Counters(OTHER);

    /** The counters a statement is recorded in. */
    public Counters forSql(String sql) {
        Counters c = byText.get(sql);
        if (c != null) {
            return c;
        }
        String template = SqlTemplate.of(sql);
        c = byTemplate.get(template);
        if (c == null) {
            c = byTemplate.size() >= MAX_TEMPLATES ? other : byTemplate.computeIfAbsent(template, Counters::new);
        }
        if (byText.size() >= MAX_TEXTS) {
            byText.clear(); // cheaper than an LRU; a text seen again costs one more lexing
        }
        byText.put(sql, c);
        return c;
    }

    /** The {@code n} templates run most often, most first. */
    public List<Snapshot> top(int n) {
        List<Snapshot> all = new ArrayList<>(byTemplate.size() + 1);
        for (Counters c : byTemplate.values()) {
            all.add(c.snapshot());
        }
        if (other.count.sum() > 0) {
            all.add(other.snapshot());
        }
        all.sort(Comparator.comparingLong(Snapshot::count).reversed().thenComparing(Snapshot::template));
        return List.copyOf(all.subList(0, Math.min(Math.max(n, 0), all.size())));
    }

    /** One template's counters. */
    public static final class Counters {
        private final String template;
        private final LongAdder count = new LongAdder();
        private final LongAdder errors = new LongAdder();
        private final LongAdder cacheHits = new LongAdder();
        private final LongAdder totalNanos = new LongAdder();
        private final AtomicLong maxNanos = new AtomicLong();

        Counters(String template) {
            this.template = template;
        }

        /** Records one execution: how long it took, whether it failed, whether the cache answered it. */
        public void record(long nanos, boolean failed, boolean cacheHit) {
            count.increment();
            totalNanos.add(nanos);
            if (failed) {
                errors.increment();
            }
            if (cacheHit) {
                cacheHits.increment();
            }
            long max = maxNanos.get();
            while (nanos > max && !maxNanos.compareAndSet(max, nanos)) { // a CAS only when a new maximum is seen
                max = maxNanos.get();
            }
        }

        Snapshot snapshot() {
            return new Snapshot(template, count.sum(), errors.sum(), cacheHits.sum(), totalNanos.sum(), maxNanos.get());
        }
    }

    /** A copy for display; times in nanoseconds. */
    public record Snapshot(String template, long count, long errors, long cacheHits, long totalNanos, long maxNanos) {
        public long meanNanos() {
            return count == 0 ? 0 : totalNanos / count;
        }
    }
}
