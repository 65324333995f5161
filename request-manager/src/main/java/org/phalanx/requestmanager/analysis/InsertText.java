package org.phalanx.requestmanager.analysis;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of an {@code INSERT INTO t (columns) VALUES (...), (...)}: where its column list and
 * each row end, to add columns and values there.
 */
public record InsertText(String sql, Set<String> columns, int columnsEnd, List<Integer> rowEnds) {
    /**
     * {@code INSERT [INTO]}, with MariaDB's modifiers ({@code INSERT IGNORE}, {@code INSERT
     * LOW_PRIORITY}...), SQLite's conflict clause ({@code INSERT OR REPLACE}) or MariaDB's REPLACE.
     */
    private static final String INSERT_INTO = "\\s*(?:insert|replace)\\s+(?:(?:low_priority|delayed|high_priority|ignore)\\s+)*"
            + "(?:or\\s+(?:replace|ignore|abort|fail|rollback)\\s+)?(?:into\\s+)?";
    /** What comes before the column list: {@code INSERT [INTO] t}. */
    private static final Pattern COLUMN_LIST_START = Pattern.compile("(?is)" + INSERT_INTO + "\\S+\\s*");
    private static final Pattern VALUES_WITHOUT_COLUMN_LIST = Pattern.compile("(?is)" + INSERT_INTO + "\\S+\\s+values\\s*\\(");
    private static final Pattern TABLE = Pattern.compile("(?is)" + INSERT_INTO + "([^\\s(]+)");
    /** MariaDB's {@code INSERT INTO t SET a = 1, b = 2}. */
    private static final Pattern SET_FORM = Pattern.compile("(?is)" + INSERT_INTO + "\\S+\\s+set\\s");
    private static final Pattern ON_DUPLICATE_KEY_UPDATE = Pattern.compile("(?is)\\bon\\s+duplicate\\s+key\\s+update\\b");
    /** Texts read, at most; and the longest text kept (each holds its text). */
    private static final int KEPT = 10_000;
    private static final int LONGEST_KEPT = 4096;
    private static final Map<String, Optional<InsertText>> READ = new ConcurrentHashMap<>();

    /**
     * The INSERT of {@code WITH a AS (...), b AS (...) INSERT ...} (from its first word on), or
     * {@code sql} itself when it does not start with WITH or has no INSERT after its common tables.
     */
    public static String afterCommonTables(String sql) {
        if (!SqlLexer.firstWord(sql).equals("with")) {
            return sql;
        }
        int insert = topLevelWord(sql, InsertText::mayBe);
        return insert < 0 ? sql : sql.substring(insert);
    }

    /** Where the statement's own {@code RETURNING} clause starts (outside parentheses); -1 if it has none. */
    public static int returningAt(String insert) {
        return topLevelWord(insert, w -> w.equalsIgnoreCase("returning"));
    }

    /** Where the first word outside parentheses, strings and comments that {@code wanted} accepts starts; -1 if none does. */
    private static int topLevelWord(String sql, java.util.function.Predicate<String> wanted) {
        int i = 0;
        while (i < sql.length()) {
            int skipped = SqlLexer.skipNonCode(sql, i);
            if (skipped != i) {
                i = skipped;
            } else if (sql.charAt(i) == '(') {
                int close = SqlLexer.closing(sql, i);
                if (close < 0) {
                    return -1;
                }
                i = close + 1;
            } else if (SqlLexer.isWordStart(sql.charAt(i))) {
                int end = SqlLexer.wordEnd(sql, i);
                if (wanted.test(sql.substring(i, end))) {
                    return i;
                }
                i = end;
            } else {
                i++;
            }
        }
        return -1;
    }

    /** Whether the statement starts as an INSERT (or MariaDB's REPLACE) does: a check cheap enough for every write. */
    public static boolean mayBe(String sql) {
        int i = 0;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return sql.regionMatches(true, i, "insert", 0, 6) || sql.regionMatches(true, i, "replace", 0, 7);
    }

    /**
     * The INSERT's text, or null when it is not {@code INSERT INTO t (columns) VALUES (...)...}.
     * Read once per text (up to {@link #LONGEST_KEPT} characters): a prepared INSERT comes back with
     * the same text, and reading it was a few per cent of the controller's CPU under TPC-C.
     */
    public static InsertText of(String sql) {
        if (sql.length() > LONGEST_KEPT) {
            return read(sql);
        }
        Optional<InsertText> known = READ.get(sql);
        if (known == null) {
            known = Optional.ofNullable(read(sql));
            if (READ.size() >= KEPT) {
                READ.clear(); // rare: a forgotten text is read again
            }
            READ.put(sql, known);
        }
        return known.orElse(null);
    }

    private static InsertText read(String sql) {
        int close = columnListEnd(sql);
        if (close < 0) {
            return null;
        }
        Set<String> columns = columns(sql, close);
        int i = skipBlanks(sql, close + 1);
        if (!sql.regionMatches(true, i, "values", 0, 6)) {
            return null; // INSERT ... SELECT
        }
        List<Integer> rowEnds = new ArrayList<>();
        i = skipBlanks(sql, i + 6);
        while (i < sql.length() && sql.charAt(i) == '(') {
            int end = SqlLexer.closing(sql, i);
            if (end < 0) {
                return null;
            }
            rowEnds.add(end);
            i = skipBlanks(sql, end + 1);
            if (i < sql.length() && sql.charAt(i) == ',') {
                i = skipBlanks(sql, i + 1);
            } else {
                break;
            }
        }
        return rowEnds.isEmpty() ? null : new InsertText(sql, Set.copyOf(columns), close, List.copyOf(rowEnds));
    }

    /**
     * The columns an INSERT lists right after its table (whatever follows: VALUES, SELECT), or null
     * when it lists none (it then gives the table's columns in order).
     */
    public static Set<String> listedColumns(String sql) {
        int close = columnListEnd(sql);
        return close < 0 ? null : columns(sql, close);
    }

    /** Where the column list right after the INSERT's table ends (its closing parenthesis); -1 if it has none. */
    private static int columnListEnd(String sql) {
        int open = sql.indexOf('(');
        if (open < 0 || !COLUMN_LIST_START.matcher(sql.substring(0, open)).matches()
                || SqlLexer.firstWord(sql.substring(open + 1)).equals("select")) { // INSERT INTO t (SELECT ...)
            return -1;
        }
        return SqlLexer.closing(sql, open);
    }

    /** The columns of the list ending at {@code close}, normalized. */
    private static Set<String> columns(String sql, int close) {
        Set<String> columns = new HashSet<>();
        for (String c : sql.substring(sql.indexOf('(') + 1, close).split(",")) {
            columns.add(SqlAnalyzer.normalize(c.strip()));
        }
        return Set.copyOf(columns);
    }

    /** How many values the first row of {@code INSERT INTO t VALUES (...)} (no column list) gives; -1 for another form. */
    public static int firstRowWidth(String sql) {
        Matcher m = VALUES_WITHOUT_COLUMN_LIST.matcher(sql);
        if (!m.lookingAt()) {
            return -1;
        }
        int open = m.end() - 1;
        int close = SqlLexer.closing(sql, open);
        return close < 0 ? -1 : topLevelCommas(sql, open + 1, close) + 1;
    }

    /** An INSERT (or REPLACE) taking its rows from a query of a table (not one row of values) with no ORDER BY anywhere. */
    public static boolean selectsWithoutOrder(String sql) {
        return mayBe(sql) && SqlLexer.containsWord(sql, "select") && SqlLexer.containsWord(sql, "from")
                && !SqlLexer.containsWord(sql, "order");
    }

    /** The table an INSERT names (normalized), read from its text; null if it does not start as one. */
    public static String table(String sql) {
        Matcher m = TABLE.matcher(sql);
        return m.lookingAt() ? SqlAnalyzer.normalize(m.group(1)) : null;
    }

    /**
     * The assignments of MariaDB's {@code INSERT INTO t SET a = 1, b = 2} (what follows SET), or null
     * for another form: the columns it does not assign take their defaults.
     */
    public static String setList(String sql) {
        Matcher m = SET_FORM.matcher(sql);
        return m.lookingAt() ? sql.substring(m.end()) : null;
    }

    /** Whether the statement says DEFAULT (a value, or DEFAULT VALUES): the engine then picks the value. */
    public static boolean saysDefault(String sql) {
        return SqlLexer.containsWord(sql, "default");
    }

    /** MariaDB's {@code ON DUPLICATE KEY UPDATE} list of an INSERT (up to its end), or null if it has none. */
    public static String onDuplicateKeyUpdate(String sql) {
        Matcher m = ON_DUPLICATE_KEY_UPDATE.matcher(sql);
        return m.find() ? sql.substring(m.end()) : null;
    }

    private static int topLevelCommas(String sql, int from, int to) {
        int commas = 0;
        int depth = 0;
        int i = from;
        while (i < to) {
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
            } else if (c == ',' && depth == 0) {
                commas++;
            }
            i++;
        }
        return commas;
    }

    /** The statement with the columns added to its list and the values to each of its rows. */
    public String with(List<String> moreColumns, List<String> moreValues) {
        String addColumns = ", " + String.join(", ", moreColumns);
        String addValues = ", " + String.join(", ", moreValues);
        StringBuilder out = new StringBuilder(sql.length() + 64);
        out.append(sql, 0, columnsEnd).append(addColumns);
        int copied = columnsEnd;
        for (int end : rowEnds) {
            out.append(sql, copied, end).append(addValues);
            copied = end;
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    private static int skipBlanks(String sql, int i) {
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return i;
    }
}
