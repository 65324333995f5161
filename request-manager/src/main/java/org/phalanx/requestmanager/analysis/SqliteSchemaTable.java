package org.phalanx.requestmanager.analysis;

import java.util.Locale;
import java.util.Set;
import org.phalanx.recoverylog.ControllerTables;

/**
 * On SQLite the controller's own table shares the application's schema (a file has one), so a
 * client reading the schema table itself — {@code sqlite_master}/{@code sqlite_schema}, as
 * Flyway, shells and browsers do — would see it, find a fresh database not empty, and drop it
 * with the rest. A client's statement for a SQLite backend therefore reads that table through a
 * subquery without the controller's rows ({@link ControllerTables}); text in literals, quoted
 * identifiers and comments is left alone.
 */
public final class SqliteSchemaTable {
    private static final Set<String> NAMES = Set.of("sqlite_master", "sqlite_schema");
    /** Words that may follow a table reference without an alias. */
    private static final Set<String> CLAUSES = Set.of("where", "group", "order", "limit", "union", "except",
            "intersect", "join", "inner", "left", "right", "cross", "natural", "full", "on", "using", "window",
            "having", "returning");
    private static final String FILTER = " WHERE lower(tbl_name) <> '" + ControllerTables.APPLIED
            + "' AND lower(tbl_name) NOT LIKE '" + ControllerTables.RESTORE_PREFIX.replace("_", "\\_")
            + "%' ESCAPE '\\' AND lower(tbl_name) NOT LIKE '" + ControllerTables.UPPER_APPLIED_PREFIX.replace("_", "\\_")
            + "%' ESCAPE '\\')";

    private SqliteSchemaTable() {
    }

    /** The statement with every reference to the schema table reading it without the controller's rows. */
    public static String withoutControllerTables(String sql) {
        if (!mentionsSqlite(sql)) {
            return sql; // the common case, at the cost of one scan
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
            if (!SqlLexer.isWordStart(sql.charAt(i)) || i > 0 && SqlLexer.isWordPart(sql.charAt(i - 1))) {
                i++;
                continue;
            }
            int end = SqlLexer.wordEnd(sql, i);
            String word = sql.substring(i, end).toLowerCase(Locale.ROOT);
            String after = next(sql, end);
            if (NAMES.contains(word) && !after.equals("(") && !after.equals(".")) { // not a function, nor a column's qualifier
                int start = qualifierStart(sql, i);
                if (out == null) {
                    out = new StringBuilder(sql.length() + 160);
                }
                out.append(sql, copied, start).append("(SELECT * FROM ").append(sql, start, end).append(FILTER);
                boolean aliased = !after.isEmpty() && (SqlLexer.isWordStart(after.charAt(0))
                        && !CLAUSES.contains(after) || "\"`[".indexOf(after.charAt(0)) >= 0);
                if (!aliased) {
                    out.append(" AS ").append(word); // no alias of its own: columns it qualifies keep working
                }
                copied = end;
            }
            i = end;
        }
        return out == null ? sql : out.append(sql, copied, sql.length()).toString();
    }

    private static boolean mentionsSqlite(String sql) {
        for (int i = sql.indexOf('_'); i >= 6; i = sql.indexOf('_', i + 1)) {
            if (sql.regionMatches(true, i - 6, "sqlite_", 0, 7)) {
                return true;
            }
        }
        return false;
    }

    /** Where a reference ending with the word at {@code word} starts: before its schema ({@code main.}, {@code "main".}), if any. */
    private static int qualifierStart(String sql, int word) {
        int j = word - 1;
        while (j >= 0 && Character.isWhitespace(sql.charAt(j))) {
            j--;
        }
        if (j < 0 || sql.charAt(j) != '.') {
            return word;
        }
        j--;
        while (j >= 0 && Character.isWhitespace(sql.charAt(j))) {
            j--;
        }
        if (j < 0) {
            return word;
        }
        char c = sql.charAt(j);
        if (c == '"' || c == '`' || c == ']') {
            char open = c == ']' ? '[' : c;
            int k = sql.lastIndexOf(open, j - 1);
            return k < 0 ? word : k;
        }
        int k = j;
        while (k >= 0 && SqlLexer.isWordPart(sql.charAt(k))) {
            k--;
        }
        return k == j ? word : k + 1;
    }

    /** The next token after {@code i} in lower case: a word, or one character ("" at the end). */
    private static String next(String sql, int i) {
        while (i < sql.length()) {
            int skipped = SqlLexer.skipNonCode(sql, i);
            if (skipped != i && sql.charAt(i) != '"' && sql.charAt(i) != '`' && sql.charAt(i) != '\'') {
                i = skipped; // a comment
                continue;
            }
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (SqlLexer.isWordStart(c)) {
                int end = SqlLexer.wordEnd(sql, i);
                return sql.substring(i, end).toLowerCase(Locale.ROOT);
            }
            return String.valueOf(c);
        }
        return "";
    }
}
