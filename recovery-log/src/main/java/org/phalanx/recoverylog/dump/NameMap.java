package org.phalanx.recoverylog.dump;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Names in a portable dump. DdlUtils' data XML uses table names as element names and column
 * names as attribute names, unescaped: a table called {@code Mixed Case} would make the file
 * malformed. So the dump's schema and data use safe names — the real name when it is a plain
 * identifier unique regardless of case, {@code table_N}/{@code column_N} otherwise — and this map
 * records the real ones ({@code rename.table.<safe>}, {@code rename.column.<safeTable>.<safe>}
 * in dump.properties, only for names that changed).
 */
final class NameMap {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** safe table name -> original */
    private final Map<String, String> tables = new LinkedHashMap<>();
    /** safe table name -> (safe column name -> original) */
    private final Map<String, Map<String, String>> columns = new LinkedHashMap<>();

    /** Whether a name can appear as an XML name and in SQL without quotes on every engine. */
    static boolean isPlain(String name) {
        return PLAIN.matcher(name).matches() && !name.toLowerCase(Locale.ROOT).startsWith("xml");
    }

    /** Chooses safe names for {@code originals}; {@code prefix} makes the synthetic ones. */
    static Map<String, String> safeNames(Iterable<String> originals, String prefix) {
        Set<String> taken = new HashSet<>();
        Map<String, String> result = new LinkedHashMap<>();
        for (String name : originals) {
            if (isPlain(name) && taken.add(name.toLowerCase(Locale.ROOT))) {
                result.put(name, name);
            }
        }
        int n = 0;
        for (String name : originals) {
            if (!result.containsKey(name)) {
                String safe;
                do {
                    safe = prefix + (++n);
                } while (!taken.add(safe));
                result.put(name, safe);
            }
        }
        return result;
    }

    void table(String safe, String original) {
        tables.put(safe, original);
        columns.putIfAbsent(safe, new LinkedHashMap<>());
    }

    void column(String safeTable, String safe, String original) {
        columns.computeIfAbsent(safeTable, k -> new LinkedHashMap<>()).put(safe, original);
    }

    String originalTable(String safe) {
        return tables.getOrDefault(safe, safe);
    }

    String originalColumn(String safeTable, String safe) {
        Map<String, String> map = columns.get(safeTable);
        return map == null ? safe : map.getOrDefault(safe, safe);
    }

    void writeTo(Map<String, String> info) {
        tables.forEach((safe, original) -> {
            if (!safe.equals(original)) {
                info.put("rename.table." + safe, original);
            }
        });
        columns.forEach((table, map) -> map.forEach((safe, original) -> {
            if (!safe.equals(original)) {
                info.put("rename.column." + table + "." + safe, original);
            }
        }));
    }

    static NameMap readFrom(Map<String, String> info) {
        NameMap map = new NameMap();
        info.forEach((key, value) -> {
            if (key.startsWith("rename.table.")) {
                map.table(key.substring("rename.table.".length()), value);
            } else if (key.startsWith("rename.column.")) {
                String rest = key.substring("rename.column.".length());
                int dot = rest.indexOf('.'); // safe names never contain dots
                map.column(rest.substring(0, dot), rest.substring(dot + 1), value);
            }
        });
        return map;
    }
}
