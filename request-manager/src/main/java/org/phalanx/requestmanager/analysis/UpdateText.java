package org.phalanx.requestmanager.analysis;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The text of a single-table {@code UPDATE t [alias] SET a = ..., b = ... [WHERE ...]}: where its
 * SET list starts and which columns it assigns, to assign one more there.
 */
public record UpdateText(String sql, Set<String> assigned, int setListStart) {
    /** Whether the statement starts as an UPDATE does: a check cheap enough for every write. */
    public static boolean mayBe(String sql) {
        int i = 0;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return sql.regionMatches(true, i, "update", 0, 6);
    }

    /** The UPDATE's text, or null when it is not a single-table {@code UPDATE t [alias] SET ...}. */
    public static UpdateText of(String sql) {
        if (!SqlLexer.firstWord(sql).equals("update")) {
            return null;
        }
        int set = -1;
        int wordsBefore = 0;
        int i = 0;
        while (i < sql.length()) {
            int skipped = SqlLexer.skipNonCode(sql, i);
            if (skipped != i) {
                if (set < 0 && sql.charAt(i) != '-' && sql.charAt(i) != '/') {
                    wordsBefore++; // a quoted table name or alias
                }
                i = skipped;
                continue;
            }
            char c = sql.charAt(i);
            if (set < 0 && (c == ',' || c == '(')) {
                return null; // several tables, or a subquery, before SET
            }
            if (SqlLexer.isWordStart(c)) {
                int end = SqlLexer.wordEnd(sql, i);
                String word = sql.substring(i, end).toLowerCase(Locale.ROOT);
                if (set < 0) {
                    if (word.equals("set")) {
                        set = end;
                        break;
                    }
                    if (word.equals("join") || word.equals("low_priority") || word.equals("ignore")) {
                        return null; // multi-table, or modifiers this does not place around
                    }
                    wordsBefore++;
                }
                i = end;
                continue;
            }
            i++;
        }
        // "update" itself, the table (two words when qualified) and maybe an alias, with AS
        if (set < 0 || wordsBefore > 5) {
            return null;
        }
        return new UpdateText(sql, assignedColumns(sql, set), set);
    }

    /** The columns on the left of the SET list's assignments, normalized, up to WHERE/ORDER/LIMIT/RETURNING. */
    /** The columns an assignment list ({@code a = 1, b = b + 1}, as after SET) assigns, normalized. */
    public static Set<String> assignedIn(String assignments) {
        return assignedColumns(assignments, 0);
    }

    private static Set<String> assignedColumns(String sql, int from) {
        Set<String> columns = new HashSet<>();
        int depth = 0;
        int itemStart = from;
        boolean inLeft = true;
        int i = from;
        while (i <= sql.length()) {
            if (i == sql.length()) {
                break;
            }
            int skipped = SqlLexer.skipNonCode(sql, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            char c = sql.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && c == '=' && inLeft) {
                String left = sql.substring(itemStart, i).strip();
                int dot = left.lastIndexOf('.');
                columns.add(SqlAnalyzer.normalize(dot >= 0 ? left.substring(dot + 1) : left));
                inLeft = false;
            } else if (depth == 0 && c == ',') {
                itemStart = i + 1;
                inLeft = true;
            } else if (depth == 0 && SqlLexer.isWordStart(c) && (i == 0 || !SqlLexer.isWordPart(sql.charAt(i - 1)))) {
                int end = SqlLexer.wordEnd(sql, i);
                String word = sql.substring(i, end).toLowerCase(Locale.ROOT);
                if (!inLeft && Set.of("where", "order", "limit", "returning").contains(word)) {
                    break;
                }
                i = end;
                continue;
            }
            i++;
        }
        return Set.copyOf(columns);
    }

    /**
     * The statement with {@code assignments} ({@code a = 1, b = 2}) first in its SET list: MariaDB
     * evaluates a SET list from left to right, and these are literals, so what follows is unchanged.
     */
    public String withFirst(String assignments) {
        return sql.substring(0, setListStart) + " " + assignments + "," + sql.substring(setListStart);
    }
}
