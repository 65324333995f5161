package org.phalanx.requestmanager.stats;

import java.util.Map;

/**
 * The cache's counters, in one place for the management interface.
 *
 * @param ruleHits hits per rule (its location, or "default")
 */
public record CacheStatistics(long hits, long misses, long invalidations, long evictions, long entries,
                              long memoryBytes, long notStored, Map<String, Long> ruleHits) {
}
