package org.phalanx.requestmanager.verify;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A chunk of a keyed table: the rows whose primary key is above {@code after} and at most
 * {@code upTo} (null: unbounded on that side). The same bounds, taken from the reference replica,
 * are sent to every replica.
 */
record KeyRange(List<Object> after, List<Object> upTo) {
    /** Every row: a table whose key does not order alike on its replicas' engines is one chunk. */
    static final KeyRange ALL = new KeyRange(null, null);

    /** The WHERE clause (empty for every row), with a parameter for each bound value. */
    String where(List<String> quotedKey) {
        List<String> conditions = new ArrayList<>(2);
        if (after != null) {
            conditions.add(tuple(quotedKey) + " > " + tuple(marks(quotedKey.size())));
        }
        if (upTo != null) {
            conditions.add(tuple(quotedKey) + " <= " + tuple(marks(quotedKey.size())));
        }
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    /** Binds the bounds of {@link #where} from parameter {@code first}; returns the next parameter's index. */
    int bind(PreparedStatement ps, int first) throws SQLException {
        int i = first;
        for (List<Object> bound : new List[] {after, upTo}) {
            if (bound != null) {
                for (Object v : bound) {
                    ps.setObject(i++, v);
                }
            }
        }
        return i;
    }

    /** For people: {@code id > 1000 AND id <= 2000}, or "whole table". */
    String describe(List<String> key) {
        if (after == null && upTo == null) {
            return "whole table";
        }
        List<String> parts = new ArrayList<>(2);
        if (after != null) {
            parts.add(tuple(key) + " > " + values(after));
        }
        if (upTo != null) {
            parts.add(tuple(key) + " <= " + values(upTo));
        }
        return String.join(" AND ", parts);
    }

    private static String tuple(List<String> items) {
        return items.size() == 1 ? items.get(0) : "(" + String.join(", ", items) + ")";
    }

    private static List<String> marks(int n) {
        return java.util.Collections.nCopies(n, "?");
    }

    private static String values(List<Object> values) {
        List<String> texts = values.stream().map(v -> v instanceof String s ? "'" + s + "'" : String.valueOf(v)).toList();
        return tuple(texts);
    }
}
