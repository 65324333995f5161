package org.phalanx.requestmanager.cache;

import org.phalanx.requestmanager.stats.CacheStatistics;

import java.sql.ResultSetMetaData;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.phalanx.requestmanager.config.CacheConfig;
import org.phalanx.requestmanager.config.CacheConfig.Action;
import org.phalanx.requestmanager.config.CacheConfig.Rule;

/**
 * The query result cache of one virtual database.
 *
 * <p>Strong consistency: a write calls {@link #invalidate} once it is queued on every backend
 * and before it is acknowledged; that removes every entry it may change and notes itself on
 * every read still being filled that it may change, whose rows are then stored only if that
 * write cannot have changed those very rows (the race that would otherwise insert a stale
 * entry). Reads being filled register before they pick a backend, and only use a backend that
 * has applied every write queued on their tables.
 *
 * <p>Relaxed entries are not invalidated: they are served until their staleness limit.
 * Identical reads arriving while one is being filled wait for its rows.
 *
 * <p>Hits take no lock (they read a concurrent map and mark the entry used); everything else
 * holds the cache's monitor briefly. Writes find the entries they may change through a
 * {@link TableIndex} per table instead of looking at every entry of the table. Eviction is
 * "second chance" (CLOCK), the usual lock-free approximation of LRU: entries leave in the
 * order they were stored, except that one used since it was last looked at goes round again.
 */
public final class ResultCache {
    private final CacheConfig config;
    private final IntSupplier load;
    /** Read without the lock; changed under it. */
    private final Map<CacheKey, Entry> entries = new ConcurrentHashMap<>();
    /** Entries in eviction order (insertion order, used ones moved to the end). */
    private final LinkedHashMap<CacheKey, Entry> evictionOrder = new LinkedHashMap<>();
    /** Table to its eager entries, and to the fills reading it. */
    private final Map<String, TableIndex<Entry>> entriesByTable = new HashMap<>();
    private final Map<String, Set<Fill>> fillsByTable = new HashMap<>();
    private final Map<CacheKey, Fill> fills = new HashMap<>();
    /** SQL texts whose results were too big to cache: not tried again. */
    private final Set<String> tooBig = ConcurrentHashMap.newKeySet();
    private final Map<String, Rule> ruleBySql = new ConcurrentHashMap<>();
    private static final Rule DEFAULT = new Rule(null, Action.EAGER, null, "default");
    /** Beyond this many writes racing with one fill, it is not stored (bounds the memory a slow read holds). */
    private static final int MAX_RACING_WRITES = 64;
    private long memory;
    private volatile boolean relaxedActive;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private long invalidations;
    private long evictions;
    private long notStored;
    private final Map<String, LongAdder> ruleHits = new ConcurrentHashMap<>();

    /** @param load backends' pending requests, for load-triggered relaxed rules */
    public ResultCache(CacheConfig config, IntSupplier load) {
        this.config = config;
        this.load = load;
    }

    public CacheConfig config() {
        return config;
    }

    /** What a read should do. */
    public sealed interface Decision permits Hit, Miss, Wait, Bypass {
    }

    /** Served from the cache. */
    public record Hit(ResultSetMetaData metaData, List<Object[]> rows) implements Decision {
    }

    /** Not cached: run it, then {@link #store} or {@link #abandon} the fill. */
    public record Miss(Fill fill) implements Decision {
    }

    /** The same read is being filled: wait for it (null: it could not be stored, run it yourself). */
    public record Wait(CompletableFuture<Hit> result) implements Decision {
    }

    /** Not for the cache: run it as usual. */
    public record Bypass() implements Decision {
    }

    /** A read in progress whose rows may be stored. */
    public static final class Fill {
        final CacheKey key;
        final List<Touch> touches;
        final Rule rule;
        final boolean relaxed;
        final CompletableFuture<Hit> waiters = new CompletableFuture<>();
        /** A write may have changed its rows whatever they are: not stored. */
        boolean dirty;
        /**
         * Writes that may change what it reads, acknowledged while it ran: its rows may or may
         * not hold their effect, so they are stored only if none of these writes can have
         * changed those very rows (a listing survives a bid on an item it does not show).
         */
        final List<Touch> racing = new ArrayList<>();

        Fill(CacheKey key, List<Touch> touches, Rule rule, boolean relaxed) {
            this.key = key;
            this.touches = touches;
            this.rule = rule;
            this.relaxed = relaxed;
        }
    }

    private static final class Entry {
        final CacheKey key;
        final Hit hit;
        final List<Touch> touches;
        final long bytes;
        final long expiresAt; // 0 for eager entries
        final String rule;
        /** Hit since the eviction sweep last passed it. */
        volatile boolean used;

        Entry(CacheKey key, Hit hit, List<Touch> touches, long bytes, long expiresAt, String rule) {
            this.key = key;
            this.hit = hit;
            this.touches = touches;
            this.bytes = bytes;
            this.expiresAt = expiresAt;
            this.rule = rule;
        }
    }

    /**
     * @param touches what the read depends on, table by table (never null: callers pass
     *                whole-table touches when the footprint is unknown); asked for on a miss only
     * @param mayStore false inside a transaction: its reads may use the cache but never fill it
     */
    public Decision lookup(String sql, List<Object> params, int maxRows, Supplier<List<Touch>> touches,
                           boolean mayStore) {
        Rule rule = rule(sql);
        if (rule.action() == Action.NO_CACHING || tooBig.contains(sql)) {
            return new Bypass();
        }
        CacheKey key = CacheKey.of(sql, params, maxRows);
        long now = System.nanoTime();
        Entry e = entries.get(key);
        if (e != null && serves(e, rule, now)) {
            return hit(e);
        }
        synchronized (this) {
            e = entries.get(key);
            if (e != null) {
                if (serves(e, rule, now)) {
                    return hit(e);
                }
                remove(e); // expired, or relaxed while relaxed rules are off
            }
            misses.increment();
            Fill running = fills.get(key);
            if (running != null) {
                return new Wait(running.waiters);
            }
            if (!mayStore) {
                return new Bypass();
            }
            boolean relaxed = rule.action() == Action.RELAXED && relaxedApplies();
            Fill fill = new Fill(key, touches.get(), rule, relaxed);
            fills.put(key, fill);
            if (!relaxed) {
                for (Touch t : fill.touches) {
                    fillsByTable.computeIfAbsent(t.table(), k -> new HashSet<>()).add(fill);
                }
            }
            return new Miss(fill);
        }
    }

    /** Eager entries serve until invalidated; relaxed ones while relaxed rules apply, until they expire. */
    private boolean serves(Entry e, Rule rule, long now) {
        return e.expiresAt == 0 || (rule.action() == Action.RELAXED && now - e.expiresAt < 0 && relaxedApplies());
    }

    private Hit hit(Entry e) {
        if (!e.used) {
            e.used = true;
        }
        hits.increment();
        ruleHits.computeIfAbsent(e.rule, r -> new LongAdder()).increment();
        return e.hit;
    }

    /** Stores the rows of a fill unless a conflicting write came meanwhile; wakes its waiters. */
    public void store(Fill fill, ResultSetMetaData metaData, List<Object[]> rows) {
        Hit hit = new Hit(metaData, List.copyOf(rows));
        synchronized (this) {
            finish(fill);
            long bytes = estimate(rows);
            if (fill.dirty || racedWith(fill, rows) || bytes > config.maxMemoryBytes()) {
                notStored++;
                fill.waiters.complete(null);
                return;
            }
            long expiresAt = fill.relaxed ? System.nanoTime() + fill.rule.staleness().toNanos() : 0;
            Entry e = new Entry(fill.key, hit, fill.touches, bytes, expiresAt, fill.rule.location());
            Entry old = entries.get(fill.key);
            if (old != null) {
                remove(old);
            }
            entries.put(fill.key, e);
            evictionOrder.put(fill.key, e);
            memory += bytes;
            if (!fill.relaxed) {
                for (Touch t : fill.touches) {
                    entriesByTable.computeIfAbsent(t.table(), k -> new TableIndex<>()).add(e, t, e.hit.rows());
                }
            }
            evictOverflow();
        }
        fill.waiters.complete(hit);
    }

    /** The fill will not be stored (failed, too big, served elsewhere). */
    public void abandon(Fill fill, boolean resultTooBig) {
        synchronized (this) {
            finish(fill);
            notStored++;
        }
        if (resultTooBig) {
            tooBig.add(fill.key.sql());
        }
        fill.waiters.complete(null);
    }

    /** Rows a result may have to be stored. */
    public int maxEntryRows() {
        return config.maxEntryRows();
    }

    /** A write is queued everywhere: drop what it may change (touches null: it may change anything). */
    public synchronized void invalidate(List<Touch> writes) {
        if (writes == null || config.granularity() == CacheConfig.Granularity.DATABASE) {
            invalidateAll();
            return;
        }
        for (Touch w : writes) {
            TableIndex<Entry> reading = entriesByTable.get(w.table());
            if (reading != null) {
                Set<Entry> candidates = new HashSet<>();
                reading.candidates(w, config.granularity(), candidates);
                for (Entry e : candidates) {
                    if (conflicts(w, e.touches, e.hit.rows())) {
                        remove(e);
                        invalidations++;
                    }
                }
            }
            Set<Fill> filling = fillsByTable.get(w.table());
            if (filling != null) {
                for (Fill f : filling) {
                    if (conflicts(w, f.touches, null)) { // no rows yet: decided when they come
                        if (f.racing.size() < MAX_RACING_WRITES) {
                            f.racing.add(w);
                        } else {
                            f.dirty = true;
                        }
                    }
                }
            }
        }
    }

    /** Drops every eager entry and spoils every fill in progress (DDL, unknown writes). */
    public synchronized void invalidateAll() {
        for (Entry e : List.copyOf(entries.values())) {
            if (e.expiresAt == 0) {
                remove(e);
                invalidations++;
            }
        }
        for (Fill f : fills.values()) {
            f.dirty = true;
        }
    }

    /** Operator action: empty the cache, relaxed entries included. */
    public synchronized void flush() {
        entries.clear();
        evictionOrder.clear();
        entriesByTable.clear();
        memory = 0;
        for (Fill f : fills.values()) {
            f.dirty = true;
        }
        tooBig.clear();
    }

    public synchronized CacheStatistics statistics() {
        Map<String, Long> byRule = new HashMap<>();
        ruleHits.forEach((rule, n) -> byRule.put(rule, n.sum()));
        return new CacheStatistics(hits.sum(), misses.sum(), invalidations, evictions, entries.size(), memory,
                notStored, Map.copyOf(byRule));
    }

    private boolean racedWith(Fill fill, List<Object[]> rows) {
        for (Touch w : fill.racing) {
            if (conflicts(w, fill.touches, rows)) {
                return true;
            }
        }
        return false;
    }

    private boolean conflicts(Touch write, List<Touch> reads, List<Object[]> rows) {
        for (Touch r : reads) {
            if (r.table().equals(write.table()) && Conflicts.mayChange(config.granularity(), write, r, rows)) {
                return true;
            }
        }
        return false;
    }

    private Rule rule(String sql) {
        Rule cached = ruleBySql.get(sql);
        if (cached != null) {
            return cached;
        }
        Rule found = DEFAULT;
        if (sql.contains("/*phalanx:nocache*/")) {
            found = new Rule(null, Action.NO_CACHING, null, "hint");
        } else {
            for (Rule r : config.rules()) {
                if (r.pattern().matcher(sql).find()) {
                    found = r;
                    break;
                }
            }
        }
        if (ruleBySql.size() > 10_000) {
            ruleBySql.clear();
        }
        ruleBySql.put(sql, found);
        return found;
    }

    /** Load-triggered relaxation with hysteresis: on at the high-water mark, off below the low one. */
    private boolean relaxedApplies() {
        if (config.relaxedHighWater() <= 0) {
            return true;
        }
        int pending = load.getAsInt();
        if (pending >= config.relaxedHighWater()) {
            relaxedActive = true;
        } else if (pending < config.relaxedLowWater()) {
            relaxedActive = false;
        }
        return relaxedActive;
    }

    private void finish(Fill fill) {
        fills.remove(fill.key, fill);
        for (Touch t : fill.touches) {
            Set<Fill> set = fillsByTable.get(t.table());
            if (set != null && set.remove(fill) && set.isEmpty()) {
                fillsByTable.remove(t.table());
            }
        }
    }

    private void remove(Entry e) {
        if (entries.remove(e.key, e)) {
            evictionOrder.remove(e.key);
            unindex(e);
        }
    }

    private void unindex(Entry e) {
        memory -= e.bytes;
        if (e.expiresAt != 0) {
            return; // relaxed entries are not indexed
        }
        for (Touch t : e.touches) {
            TableIndex<Entry> index = entriesByTable.get(t.table());
            if (index != null) {
                index.remove(e, t);
                if (index.isEmpty()) {
                    entriesByTable.remove(t.table());
                }
            }
        }
    }

    /** Second chance: an entry used since the sweep last passed goes to the end once more. */
    private void evictOverflow() {
        int secondChances = evictionOrder.size();
        while (entries.size() > config.maxEntries() || memory > config.maxMemoryBytes()) {
            Iterator<Entry> oldest = evictionOrder.values().iterator();
            if (!oldest.hasNext()) {
                return;
            }
            Entry e = oldest.next();
            oldest.remove();
            if (e.used && secondChances-- > 0) {
                e.used = false;
                evictionOrder.put(e.key, e);
                continue;
            }
            entries.remove(e.key, e);
            unindex(e);
            evictions++;
        }
    }

    /** Rough bytes held by the rows, enough to bound memory. */
    private static long estimate(List<Object[]> rows) {
        long bytes = 64;
        for (Object[] row : rows) {
            bytes += 16 + 8L * row.length;
            for (Object v : row) {
                if (v instanceof String s) {
                    bytes += 40 + 2L * s.length();
                } else if (v instanceof byte[] b) {
                    bytes += 16 + b.length;
                } else {
                    bytes += 24;
                }
            }
        }
        return bytes;
    }
}
