package org.phalanx.controller.jmx;

import java.util.Map;

/** The result cache of a virtual database. */
public interface CacheMXBean {
    long getHits();

    long getMisses();

    /** Hits over lookups, 0 to 1. */
    double getHitRatio();

    long getEntries();

    long getMemoryBytes();

    long getInvalidations();

    long getEvictions();

    /** Results not stored (too many rows, or changed while being read). */
    long getNotStored();

    /** Hits per cache rule (its location in the file, or "default"). */
    Map<String, Long> getRuleHits();

    void flush();
}
