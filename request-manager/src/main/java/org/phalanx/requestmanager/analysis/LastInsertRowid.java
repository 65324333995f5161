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
        return SqlLexer.replaceWords(sql, (text, start, end) -> {
            int call = text.regionMatches(true, start, NAME, 0, NAME.length()) && end - start == NAME.length()
                    && (start == 0 || text.charAt(start - 1) != '.') ? SqlLexer.emptyParensEnd(text, end) : -1;
            return call > 0 ? new SqlLexer.Replacement(Long.toString(value), call) : null;
        });
    }
}
