package org.phalanx.requestmanager.cache;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.phalanx.requestmanager.api.TypedNull;
import org.phalanx.requestmanager.analysis.Footprint;
import org.phalanx.requestmanager.analysis.KeyValue;
import org.phalanx.requestmanager.analysis.RowIdentity;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.analysis.TableFootprint;

/**
 * One execution's footprint on one table, with parameter values filled in: what a cached read
 * depends on, or what a write may change.
 *
 * @param columns null: every column
 * @param keys    column to normalised value; every row read/changed has these values
 * @param rows    for a read: how its result rows map to the table's (null: they may not)
 */
public record Touch(String table, Set<String> columns, Map<String, Object> keys, boolean rowsChange,
                    RowIdentity rows) {

    public Touch(String table, Set<String> columns, Map<String, Object> keys, boolean rowsChange) {
        this(table, columns, keys, rowsChange, null);
    }

    /** Only the table is known. */
    public static Touch wholeTable(String table, boolean write) {
        return new Touch(table, null, Map.of(), write);
    }

    /** What a read depends on, for the cache: its footprint, or its whole tables. */
    public static List<Touch> ofRead(SqlAnalysis a, List<Object> params) {
        List<Touch> touches = of(a.footprint(), params);
        if (touches != null) {
            return touches;
        }
        List<Touch> whole = new ArrayList<>();
        for (String t : a.readTables()) {
            whole.add(wholeTable(SchemaView.key(t), false));
        }
        return whole;
    }

    /** What a write may change, for the cache; null when it may change anything. */
    public static List<Touch> ofWrite(SqlAnalysis a, List<Object> params) {
        if (a.kind() == StatementKind.DDL || a.allTables()) {
            return null;
        }
        List<Touch> touches = of(a.footprint(), params);
        if (touches != null) {
            return touches;
        }
        List<Touch> whole = new ArrayList<>();
        for (String t : a.writtenTables()) {
            whole.add(wholeTable(SchemaView.key(t), true));
        }
        return whole;
    }

    /** The footprint of one execution; null when the footprint is unknown. */
    public static List<Touch> of(Footprint footprint, List<Object> params) {
        if (footprint == null) {
            return null;
        }
        List<Touch> touches = new ArrayList<>(footprint.tables().size());
        for (TableFootprint t : footprint.tables()) {
            Map<String, Object> keys = new HashMap<>();
            for (KeyValue k : t.keys()) {
                Object v = k.isParameter()
                        ? (k.parameter() <= params.size() ? params.get(k.parameter() - 1) : null)
                        : k.literal();
                Object n = normalise(v);
                // a 0 inserted into an auto-increment column (MySQL) becomes the next id: not a key
                boolean autoIncrementZero = t.rowsChange() && Long.valueOf(0).equals(n);
                if (n != null && !autoIncrementZero) {
                    keys.put(k.column(), n);
                }
            }
            touches.add(new Touch(t.table(), t.columns(), keys, t.rowsChange(), t.rows()));
        }
        return touches;
    }

    /**
     * Values compared across literals and parameters: integers as Long, other numbers as
     * stripped BigDecimal, text as String, booleans as Boolean; NULL and other types give
     * null (no key: nothing can be proven with them).
     */
    static Object normalise(Object v) {
        if (v == null || v instanceof TypedNull) {
            return null;
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigDecimal || v instanceof Double || v instanceof Float) {
            BigDecimal d = v instanceof BigDecimal b ? b : BigDecimal.valueOf(((Number) v).doubleValue());
            d = d.stripTrailingZeros();
            if (d.scale() <= 0 && d.precision() - d.scale() <= 18) {
                return d.longValueExact();
            }
            return d;
        }
        if (v instanceof String || v instanceof Boolean) {
            return v;
        }
        return null;
    }
}
