package org.phalanx.requestmanager.analysis;

import org.phalanx.engine.Engine;

/**
 * The id of a session's last INSERT, as an engine's function answers it: SQLite's
 * {@code last_insert_rowid()}, MariaDB's {@code LAST_INSERT_ID()}. Run on a backend, the function
 * would answer for whatever pooled connection runs it — usually not the one that inserted (jOOQ
 * reads its RETURNING emulation on SQLite this way, MyBatis's {@code <selectKey>} on MariaDB), and in
 * a write each replica could store another value. So the session keeps the value (each write that
 * changes it reports it) and a call without argument becomes that number before the statement is
 * analysed, routed or logged.
 */
public final class LastInsertId {
    private static final LastInsertId SQLITE = new LastInsertId("last_insert_rowid", false);
    /**
     * MariaDB reports the id in the write's own answer (its OK packet, which its driver hands out as
     * the generated key), so reading it costs nothing: a query after each INSERT cost a round trip,
     * measured 130-180 µs on a 350 µs INSERT. That answer is 0 when nothing was inserted or the
     * table has no AUTO_INCREMENT column (the session keeps its value, as MariaDB does), the first
     * generated id of a multi-row INSERT, the value {@code LAST_INSERT_ID(expr)} set — and, unlike
     * the function, the id an INSERT gave explicitly (MariaDB's function keeps the last generated
     * one then), as ProxySQL answers it too.
     */
    private static final LastInsertId MARIADB = new LastInsertId("last_insert_id", true);

    private final String function;
    private final java.util.List<String> functions;
    private final boolean inGeneratedKeys;

    private LastInsertId(String function, boolean inGeneratedKeys) {
        this.function = function;
        this.functions = java.util.List.of(function);
        this.inGeneratedKeys = inGeneratedKeys;
    }

    /** The engine's, or null for an engine whose function this does not follow (PostgreSQL's {@code lastval()}). */
    public static LastInsertId of(Engine engine) {
        return switch (engine) {
            case SQLITE -> SQLITE;
            case MARIADB -> MARIADB;
            default -> null;
        };
    }

    /** Whether a write reports the id as its first generated key (MariaDB); else a query on its connection does. */
    public boolean inGeneratedKeys() {
        return inGeneratedKeys;
    }

    /** The query that answers the function on a connection (SQLite; microseconds, in-process). */
    public String query() {
        return "SELECT " + function + "()";
    }

    /** Whether a write changes the session's value: an INSERT or REPLACE, or a statement that sets it (MariaDB's {@code LAST_INSERT_ID(expr)}). */
    public boolean changedBy(String sql) {
        String s = sql.stripLeading();
        return s.regionMatches(true, 0, "INSERT", 0, 6) || s.regionMatches(true, 0, "REPLACE", 0, 7) || mentioned(sql);
    }

    /** The session's value after a write that reported {@code reported}: MariaDB's 0 means it generated none, and the session keeps {@code last}. */
    public long after(long reported, long last) {
        return reported == 0 && inGeneratedKeys ? last : reported;
    }

    /**
     * {@link #after(long, long)} for the statement {@code sql} that counted {@code count} rows: an
     * {@code INSERT ... VALUES ... ON DUPLICATE KEY UPDATE} that updated every row it gave (MariaDB
     * counts 2 per updated row) inserted none, though MariaDB reports the updated row's id: the
     * session keeps {@code last}, unless the statement sets the value ({@code id = LAST_INSERT_ID(id)}).
     */
    public long after(String sql, long count, long reported, long last) {
        if (inGeneratedKeys && count >= 2 && !mentioned(sql) && InsertText.onDuplicateKeyUpdate(sql) != null) {
            InsertText insert = InsertText.of(sql);
            if (insert != null && count == 2L * insert.rowEnds().size()) {
                return last;
            }
        }
        return after(reported, last);
    }

    /**
     * The session's value after an INSERT whose keys the controller chose: MariaDB's is the first
     * of a multi-row INSERT's ids, SQLite's the last. (The backends, given the keys, would report
     * what they make of explicit values: MariaDB the last.)
     */
    public long ofChosenKeys(long[] keys) {
        return inGeneratedKeys ? keys[0] : keys[keys.length - 1];
    }

    /** Whether the text may call it (a look at its parentheses only: every statement of such a session passes here). */
    public boolean mentioned(String sql) {
        return SqlLexer.mayCall(sql, functions);
    }

    /** {@code sql} with every call without argument replaced by {@code value}; the same string without one. */
    public String substitute(String sql, long value) {
        if (!mentioned(sql)) {
            return sql;
        }
        return SqlLexer.replaceWords(sql, (text, start, end) -> {
            int call = text.regionMatches(true, start, function, 0, function.length()) && end - start == function.length()
                    && (start == 0 || text.charAt(start - 1) != '.') ? SqlLexer.emptyParensEnd(text, end) : -1;
            return call > 0 ? new SqlLexer.Replacement(Long.toString(value), call) : null;
        });
    }
}
