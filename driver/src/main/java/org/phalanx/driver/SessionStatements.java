package org.phalanx.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a connection must know of its own statements to go on with another controller
 * ({@link Failover}): the session commands to run again there (SET, RESET, PRAGMA assignments,
 * USE), in order; whether the session made state no other controller can rebuild (temporary
 * tables, advisory locks); and which statements are plain reads, safe to send again.
 */
final class SessionStatements {
    /** {@code SET TRANSACTION ...} and {@code SET SESSION CHARACTERISTICS ...}: the connection's own settings say those. */
    private static final java.util.regex.Pattern SET_OF_TRANSACTION = java.util.regex.Pattern.compile(
            "(?is)\\s*set\\s+(session\\s+characteristics|transaction)\\b");

    private final List<String> commands = new ArrayList<>();
    private boolean unrebuildable;

    /** Notes a statement the controller ran successfully (cheaply: it is called for every statement). */
    synchronized void ran(String sql) {
        String first = firstWord(sql);
        if (first.equals("insert") || first.equals("update") || first.equals("delete")) {
            return; // the statements sent most: nothing to note
        }
        if ((first.equals("set") && !SET_OF_TRANSACTION.matcher(sql).lookingAt())
                || first.equals("reset") || first.equals("use")
                || first.equals("pragma") && (sql.indexOf('=') >= 0 || sql.indexOf('(') >= 0)) {
            commands.add(sql);
        }
        if (!unrebuildable && (containsIgnoreCase(sql, "temporary") || containsIgnoreCase(sql, "temp table")
                || containsIgnoreCase(sql, "into temp") || containsIgnoreCase(sql, "advisory")
                || containsIgnoreCase(sql, "get_lock"))) {
            unrebuildable = true; // temporary tables, advisory and user locks: they went with the controller
        }
    }

    private static boolean containsIgnoreCase(String sql, String word) {
        for (int i = sql.length() - word.length(); i >= 0; i--) {
            if (sql.regionMatches(true, i, word, 0, word.length())) {
                return true;
            }
        }
        return false;
    }

    /** The session commands, in the order they ran. */
    synchronized List<String> commands() {
        return List.copyOf(commands);
    }

    /** Whether the session made state no other controller has (temporary tables, advisory locks). */
    synchronized boolean madeUnrebuildableState() {
        return unrebuildable;
    }

    /** Whether the session made state that went with its controller; cleared once reported. */
    synchronized boolean takeUnrebuildable() {
        boolean was = unrebuildable;
        unrebuildable = false;
        return was;
    }

    /** A read sending it again cannot change anything: a SELECT, SHOW, EXPLAIN or VALUES with no locking or side effect. */
    static boolean isPlainRead(String sql) {
        String first = firstWord(sql);
        if (!(first.equals("select") || first.equals("show") || first.equals("explain") || first.equals("values"))) {
            return false;
        }
        for (String effect : new String[] {" into ", "for update", "for share", "nextval", "setval", "advisory", "get_lock"}) {
            if (containsIgnoreCase(sql, effect)) {
                return false;
            }
        }
        return true;
    }

    /** The statement's first word, lower case, after blanks and comments. */
    static String firstWord(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == '(') {
                i++;
            } else if (sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                break;
            }
        }
        int start = i;
        while (i < n && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return sql.substring(start, i).toLowerCase(Locale.ROOT);
    }
}
