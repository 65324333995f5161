package org.phalanx.requestmanager.analysis;

import java.util.Locale;
import java.util.Set;

/**
 * PostgreSQL's {@code currval()} and {@code lastval()} answer the last value the calling
 * connection's own session took from a sequence. Outside a transaction, and in one before its first
 * write, Phalanx runs each statement on a pooled backend connection that another client may have
 * used last: the value would be that client's (or error 55000 where no one took one), and in a write
 * each replica could store a different one. Inside a transaction that has written, statements run on
 * the transaction's own connection on every backend, after its inserts there, and the functions
 * answer as on one PostgreSQL. This finds the calls (in code, not in literals or comments) of a
 * query or data change; DDL is left alone: a function body calling them runs inside its caller's
 * statement, on its connection.
 */
public final class PooledSequenceCalls {
    private static final Set<String> FUNCTIONS = Set.of("currval", "lastval");
    private static final Set<String> STATEMENTS = Set.of("select", "insert", "update", "delete", "with", "values", "merge");

    private PooledSequenceCalls() {
    }

    /** Whether {@code sql}, a query or data change, calls {@code currval} or {@code lastval}. */
    public static boolean calls(String sql) {
        if (!SqlLexer.containsIgnoreCase(sql, "currval") && !SqlLexer.containsIgnoreCase(sql, "lastval")) {
            return false; // what nearly every statement takes: no copy, no scan of words
        }
        boolean[] first = {true};
        boolean[] found = {false};
        boolean[] dataStatement = {false};
        SqlLexer.replaceWords(sql, (text, start, end) -> {
            String word = text.substring(start, end).toLowerCase(Locale.ROOT);
            if (first[0]) {
                first[0] = false;
                dataStatement[0] = STATEMENTS.contains(word);
            } else if (dataStatement[0] && FUNCTIONS.contains(word) && opensParenthesis(text, end)) {
                found[0] = true;
            }
            return null;
        });
        return found[0];
    }

    private static boolean opensParenthesis(String sql, int from) {
        int k = from;
        while (k < sql.length() && Character.isWhitespace(sql.charAt(k))) {
            k++;
        }
        return k < sql.length() && sql.charAt(k) == '(';
    }
}
