package org.phalanx.requestmanager.scheduler;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * Resources that name one row of a table by its integer primary key, for key-level write
 * conflicts ({@code lockGranularity="key"}): {@code table NUL value [NUL value...]}, the values in
 * key order. A row resource conflicts with the same row and with its whole table
 * ({@link #tableOf}); rows of one table do not conflict with each other. A leading part of a key
 * of several columns ({@link #prefix}, {@code table NUL value... NUL *}) names every row whose key
 * starts with it: it conflicts with those rows, and with the prefixes that share them.
 */
public final class RowKeys {
    private static final char SEPARATOR = '\0';
    private static final char PREFIX_END = '*';
    private static final String PREFIX_MARK = "" + SEPARATOR + PREFIX_END;

    private RowKeys() {
    }

    /** The row of {@code table} whose integer key is {@code value}, or null if the value is not an integer. */
    public static String of(String table, Object value) {
        return of(table, List.of(value));
    }

    /** The row of {@code table} whose key columns hold these integers, or null if one is not an integer. */
    public static String of(String table, List<?> values) {
        StringBuilder row = new StringBuilder(table);
        for (Object value : values) {
            row.append(SEPARATOR);
            if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
                row.append(((Number) value).longValue()); // as its BigInteger would print, without making one
                continue;
            }
            BigInteger key = integer(value);
            if (key == null) {
                return null;
            }
            row.append(key);
        }
        return row.toString();
    }

    /**
     * A row no other write names: a row inserted into a table without key or unique index, which
     * conflicts with no other such insert (only with its table).
     */
    public static String fresh(String table, long serial) {
        return table + SEPARATOR + "+" + serial;
    }

    /**
     * The rows of {@code table} whose key starts with these integers (the first key columns, not
     * all of them), or null if one is not an integer.
     */
    public static String prefix(String table, List<?> values) {
        String row = of(table, values);
        return row == null ? null : row + SEPARATOR + PREFIX_END;
    }

    /** Whether the resource is a {@link #prefix}. */
    public static boolean isPrefix(String resource) {
        return resource.endsWith(PREFIX_MARK);
    }

    public static boolean isRow(String resource) {
        return resource.indexOf(SEPARATOR) >= 0;
    }

    /** The table a resource is in: itself for a table (or {@link LockManager#ALL}). */
    public static String tableOf(String resource) {
        int i = resource.indexOf(SEPARATOR);
        return i < 0 ? resource : resource.substring(0, i);
    }

    /** Whether the two resources may name the same rows: equal, or a row and its table (ALL meets everything). */
    public static boolean overlap(String a, String b) {
        if (a.equals(b) || a.equals(LockManager.ALL) || b.equals(LockManager.ALL)) {
            return true;
        }
        boolean rowA = isRow(a);
        boolean rowB = isRow(b);
        if (rowA && rowB) {
            return covers(a, b) || covers(b, a); // different rows, unless a prefix names both
        }
        return tableOf(a).equals(tableOf(b));
    }

    /** Whether {@code prefix} is a {@link #prefix} of {@code row}'s key (a row, or a longer prefix). */
    private static boolean covers(String prefix, String row) {
        if (!isPrefix(prefix)) {
            return false;
        }
        int stem = prefix.length() - 1; // up to and including the separator before the mark
        return row.length() > stem && row.regionMatches(0, prefix, 0, stem);
    }

    /**
     * 5, 5L, "5", 5.0 are one key: the engines compare an integer column with any of them as the
     * same row (Long, Integer, Short and Byte are printed by {@link #of(String, List)} directly).
     */
    private static BigInteger integer(Object value) {
        try {
            if (value instanceof BigInteger b) {
                return b;
            }
            if (value instanceof Number || value instanceof String) {
                return new BigDecimal(value.toString().trim()).toBigIntegerExact();
            }
        } catch (ArithmeticException | NumberFormatException e) {
            // not an integer: no row of an integer key
        }
        return null;
    }
}
