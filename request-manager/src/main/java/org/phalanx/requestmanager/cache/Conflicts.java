package org.phalanx.requestmanager.cache;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.phalanx.requestmanager.config.CacheConfig.Granularity;
import org.phalanx.requestmanager.analysis.Footprints;
import org.phalanx.requestmanager.analysis.RowIdentity;

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
                || !Collections.disjoint(write.columns(), read.columns());
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
     * At {@code value} granularity, whether a write may change a stored result, looking at the
     * result's rows when the read shows how they map to the table's ({@link Touch#rows}): an
     * UPDATE restricted to {@code id = 7} that changes none of the columns deciding which rows
     * the read returns, and in what order, changes that result only if it holds a row whose id
     * may be 7. Otherwise as {@link #mayChange}.
     */
    static boolean mayChange(Granularity granularity, Touch write, Touch read, List<Object[]> rows) {
        if (!mayChange(granularity, write, read)) {
            return false;
        }
        RowIdentity identity = read.rows();
        if (granularity != Granularity.VALUE || identity == null || rows == null || write.rowsChange()
                || write.columns() == null || !Collections.disjoint(write.columns(), identity.selectedBy())) {
            return true;
        }
        List<Map.Entry<Integer, Object>> shownKeys = new ArrayList<>(); // result column, key value
        for (Map.Entry<String, Object> k : write.keys().entrySet()) {
            Integer at = identity.shownAt().get(k.getKey());
            if (at != null && keyHolds(write, k.getKey())) {
                shownKeys.add(Map.entry(at, k.getValue()));
            }
        }
        if (shownKeys.isEmpty()) {
            return true;
        }
        for (Object[] row : rows) {
            if (mayBeChanged(row, shownKeys)) {
                return true;
            }
        }
        return false; // none of the rows the write changes is in the result, nor can it enter
    }

    /** Whether a result row may hold every key value the write is restricted to. */
    private static boolean mayBeChanged(Object[] row, List<Map.Entry<Integer, Object>> shownKeys) {
        for (Map.Entry<Integer, Object> k : shownKeys) {
            if (!mayBeEqual(row[k.getKey()], k.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** A shown value against a write's key value; integers (the usual keys) without allocating. */
    private static boolean mayBeEqual(Object shown, Object key) {
        if (key instanceof Long k && (shown instanceof Integer || shown instanceof Long)) {
            return ((Number) shown).longValue() == k;
        }
        return Footprints.mayBeEqual(Touch.normalise(shown), key);
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
