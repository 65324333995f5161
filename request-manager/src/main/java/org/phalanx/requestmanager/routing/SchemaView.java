package org.phalanx.requestmanager.routing;

import java.util.ArrayList;
import java.util.List;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.phalanx.requestmanager.backend.Backend;

/**
 * Which backend holds which table: learned from each backend's metadata when it is enabled,
 * then kept up to date by the DDL the controller runs. Names are lower case and unqualified.
 */
public final class SchemaView {
    private final Map<Backend, Set<String>> tables = new ConcurrentHashMap<>();

    /** Replaces what is known of a backend. */
    public void learn(Backend backend, Set<String> names) {
        Set<String> set = ConcurrentHashMap.newKeySet();
        for (String n : names) {
            set.add(key(n));
        }
        tables.put(backend, set);
    }

    public boolean holds(Backend backend, String table) {
        Set<String> set = tables.get(backend);
        return set != null && set.contains(key(table));
    }

    /** The backends among {@code among} that hold the table, in that order. */
    public List<Backend> holders(String table, List<Backend> among) {
        List<Backend> result = new ArrayList<>();
        for (Backend b : among) {
            if (holds(b, table)) {
                result.add(b);
            }
        }
        return result;
    }

    /** Whether any backend (enabled or not) is known to hold the table. */
    public boolean known(String table) {
        String k = key(table);
        for (Set<String> set : tables.values()) {
            if (set.contains(k)) {
                return true;
            }
        }
        return false;
    }

    public void add(Backend backend, String table) {
        tables.computeIfAbsent(backend, b -> ConcurrentHashMap.newKeySet()).add(key(table));
    }

    public void remove(Backend backend, String table) {
        Set<String> set = tables.get(backend);
        if (set != null) {
            set.remove(key(table));
        }
    }

    /** Table names of one backend, sorted, for messages and operators. */
    public List<String> tablesOf(Backend backend) {
        List<String> list = new ArrayList<>(tables.getOrDefault(backend, Set.of()));
        list.sort(null);
        return list;
    }

    /** Schema qualifiers are dropped: backends name the same table with or without them. */
    public static String key(String table) {
        return SqlAnalyzer.tableKey(table);
    }
}
