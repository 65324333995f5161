package org.phalanx.controller.jmx;

import java.util.Map;
import org.phalanx.requestmanager.stats.CacheStatistics;

/** The result cache MBean (registered only for a virtual database with a cache). */
final class CacheManagement implements CacheMXBean {
    private final VirtualDatabaseManagement vdb;

    CacheManagement(VirtualDatabaseManagement vdb) {
        this.vdb = vdb;
    }

    private CacheStatistics statistics() {
        CacheStatistics s = vdb.virtualDatabase().cacheStatistics();
        return s != null ? s : new CacheStatistics(0, 0, 0, 0, 0, 0, 0, Map.of());
    }

    @Override
    public long getHits() {
        return statistics().hits();
    }

    @Override
    public long getMisses() {
        return statistics().misses();
    }

    @Override
    public double getHitRatio() {
        CacheStatistics s = statistics();
        long lookups = s.hits() + s.misses();
        return lookups == 0 ? 0 : (double) s.hits() / lookups;
    }

    @Override
    public long getEntries() {
        return statistics().entries();
    }

    @Override
    public long getMemoryBytes() {
        return statistics().memoryBytes();
    }

    @Override
    public long getInvalidations() {
        return statistics().invalidations();
    }

    @Override
    public long getEvictions() {
        return statistics().evictions();
    }

    @Override
    public long getNotStored() {
        return statistics().notStored();
    }

    @Override
    public Map<String, Long> getRuleHits() {
        return statistics().ruleHits();
    }

    @Override
    public void flush() {
        vdb.flushCache();
    }
}
