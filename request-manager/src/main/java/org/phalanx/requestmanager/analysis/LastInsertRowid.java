package org.phalanx.requestmanager.analysis;

/**
 * SQLite's {@code last_insert_rowid()}: the rowid of the session's last INSERT. Run on a backend,
 * it would answer for whatever pooled connection runs it — usually not the one that inserted
 * (jOOQ reads its RETURNING emulation this way: {@code select id from t where _rowid_ =
 * last_insert_rowid()}), and in a write each replica could store another value. So the session
 * keeps the value (each INSERT reports it) and the call becomes that number before the statement is
 * analysed, routed or logged.
 */
public final class LastInsertRowid {
    private static final String NAME = "last_insert_rowid";

    private LastInsertRowid() {
    }

    /** Whether the text may call it (a search without a copy: every statement of a SQLite session passes here). */
    public static boolean mentioned(String sql) {
        return SqlLexer.containsIgnoreCase(sql, NAME);
    }

    /** {@code sql} with every call of {@code last_insert_rowid()} replaced by {@code value}; the same string without one. */
    public static String substitute(String sql, long value) {
        if (!mentioned(sql)) {
            return sql;
        }
        StringBuilder out = null;
        int copied = 0;
        int i = 0;
        while (i < sql.length()) {
            int skipped = SqlLexer.skipNonCode(sql, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            if (!SqlLexer.isWordStart(sql.charAt(i))) {
                i++;
                continue;
            }
            int end = SqlLexer.wordEnd(sql, i);
            int call = sql.substring(i, end).equalsIgnoreCase(NAME) && (i == 0 || sql.charAt(i - 1) != '.')
                    ? SqlLexer.emptyParensEnd(sql, end) : -1;
            if (call > 0) {
                if (out == null) {
                    out = new StringBuilder(sql.length());
                }
                out.append(sql, copied, i).append(value);
                copied = call;
                i = call;
            } else {
                i = end;
            }
        }
        return out == null ? sql : out.append(sql, copied, sql.length()).toString();
    }
}
