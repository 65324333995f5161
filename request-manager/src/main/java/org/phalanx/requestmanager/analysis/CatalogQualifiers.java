package org.phalanx.requestmanager.analysis;

/**
 * Names qualified by the virtual database, as a backend must read them. The driver reports the
 * virtual database as the connection's catalog ({@code getCatalog()}), and tools qualify their
 * names with it where the engine takes a database as qualifier — Liquibase writes
 * {@code CREATE TABLE vdb.DATABASECHANGELOG} on MariaDB and SQLite — so each backend gets its own
 * database there: its name on MariaDB; on SQLite none (its driver reports no catalog, and a
 * foreign key's {@code REFERENCES} takes no qualifier, not even {@code main}). PostgreSQL reads {@code vdb.t} as
 * schema {@code vdb}, as one PostgreSQL database would: nothing is changed there. Only the first
 * part of a dotted name is a qualifier; words in string literals and comments, and columns or
 * tables that happen to have the virtual database's name, are left alone.
 */
public final class CatalogQualifiers {
    private CatalogQualifiers() {
    }

    /**
     * {@code sql} with every qualifier naming {@code virtualDatabase} (any case, quoted or not)
     * replaced by {@code own}, quoted with {@code quote}, or dropped with its dot when {@code own}
     * is null; the same string when there is none (the common case costs one case-insensitive search).
     */
    public static String toBackend(String sql, String virtualDatabase, String own, char quote) {
        if (!SqlLexer.containsIgnoreCase(sql, virtualDatabase)) {
            return sql;
        }
        StringBuilder out = null;
        int copied = 0;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            int end;
            String word;
            if (c == '"' || c == '`') {
                end = SqlLexer.skipNonCode(sql, i);
                word = end - i >= 2 ? sql.substring(i + 1, end - 1) : "";
            } else if (SqlLexer.isWordStart(c)) {
                end = SqlLexer.wordEnd(sql, i);
                word = sql.substring(i, end);
            } else {
                int skipped = SqlLexer.skipNonCode(sql, i);
                i = skipped == i ? i + 1 : skipped;
                continue;
            }
            int dot = word.equalsIgnoreCase(virtualDatabase) ? qualifierDot(sql, i, end) : -1;
            if (dot >= 0) {
                if (out == null) {
                    out = new StringBuilder(sql.length() + 16);
                }
                out.append(sql, copied, i);
                if (own == null) {
                    end = dot + 1;
                    while (end < sql.length() && Character.isWhitespace(sql.charAt(end))) {
                        end++;
                    }
                } else {
                    out.append(quote).append(own.replace(String.valueOf(quote), "" + quote + quote)).append(quote);
                }
                copied = end;
            }
            i = end;
        }
        return out == null ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /** The dot after the name between start and end, if it qualifies a name (not preceded by a dot itself); else -1. */
    private static int qualifierDot(String sql, int start, int end) {
        int after = end;
        while (after < sql.length() && Character.isWhitespace(sql.charAt(after))) {
            after++;
        }
        int before = start - 1;
        while (before >= 0 && Character.isWhitespace(sql.charAt(before))) {
            before--;
        }
        return after < sql.length() && sql.charAt(after) == '.' && (before < 0 || sql.charAt(before) != '.') ? after : -1;
    }
}
