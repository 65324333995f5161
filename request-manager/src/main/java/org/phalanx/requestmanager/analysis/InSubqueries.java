package org.phalanx.requestmanager.analysis;

import java.util.ArrayList;
import java.util.List;

/** Where a statement's {@code IN (SELECT ...)} subqueries are, found in its text (literals and comments skipped). */
public final class InSubqueries {
    /** One subquery: the index of its opening and of its closing parenthesis. */
    public record Span(int open, int close) {
        /** The SELECT between the parentheses. */
        public String select(String sql) {
            return sql.substring(open + 1, close);
        }
    }

    private InSubqueries() {
    }

    /** Every {@code IN (SELECT ...)} subquery of {@code sql}, outermost ones only, in text order. */
    public static List<Span> of(String sql) {
        List<Span> spans = new ArrayList<>();
        String lastWord = "";
        int i = 0;
        while (i < sql.length()) {
            int skipped = SqlLexer.skipNonCode(sql, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            char c = sql.charAt(i);
            if (SqlLexer.isWordStart(c)) {
                int end = SqlLexer.wordEnd(sql, i);
                lastWord = sql.substring(i, end);
                i = end;
                continue;
            }
            if (c == '(' && lastWord.equalsIgnoreCase("in") && SqlLexer.firstWord(sql.substring(i + 1)).equals("select")) {
                int close = SqlLexer.closing(sql, i);
                if (close < 0) {
                    return spans;
                }
                spans.add(new Span(i, close));
                i = close + 1;
                lastWord = "";
                continue;
            }
            if (!Character.isWhitespace(c)) {
                lastWord = "";
            }
            i++;
        }
        return spans;
    }
}
