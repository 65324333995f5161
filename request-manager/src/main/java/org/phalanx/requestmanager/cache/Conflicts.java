package org.phalanx.requestmanager.cache;

import java.util.HashMap;
import java.util.Map;
import org.phalanx.requestmanager.CacheConfig.Granularity;
import org.phalanx.requestmanager.analysis.Footprints;

/** Whether a write may change what a cached read returned, at a given granularity. */
final class Conflicts {
    private Conflicts() {
    }

    /** Both touches are on the same table. */
    static boolean mayChange(Granularity granularity, Touch write, Touch read) {
        if (granularity == Granularity.DATABASE || granularity == Granularity.TABLE) {
            return true;
        }
        boolean columnsMeet = write.rowsChange() || write.columns() == null || read.columns() == null
                || !java.util.Collections.disjoint(write.columns(), read.columns());
        if (!columnsMeet) {
            return false;
        }
        if (granularity == Granularity.COLUMN) {
            return true;
        }
        // VALUE: the rows the write touches and the rows the read selected are disjoint when a key
        // column the write does not change has a different value on each side
        for (Map.Entry<String, Object> k : write.keys().entrySet()) {
            Object readValue = read.keys().get(k.getKey());
            if (readValue != null && keyHolds(write, k.getKey()) && !Footprints.mayBeEqual(readValue, k.getValue())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Key values every row the write touches holds before and after it, for looking up the
     * reads it may change at a granularity (empty: it may change any read of the table).
     */
    static Map<String, Object> keysHeld(Granularity granularity, Touch write) {
        if (granularity != Granularity.VALUE || write.keys().isEmpty()) {
            return Map.of();
        }
        Map<String, Object> held = new HashMap<>();
        for (Map.Entry<String, Object> k : write.keys().entrySet()) {
            if (keyHolds(write, k.getKey())) {
                held.put(k.getKey(), k.getValue());
            }
        }
        return held;
    }

    /** A key of a write holds unless the write sets that column (an UPDATE of unknown columns sets all). */
    private static boolean keyHolds(Touch write, String column) {
        return write.columns() == null ? write.rowsChange() : !write.columns().contains(column);
    }
}
