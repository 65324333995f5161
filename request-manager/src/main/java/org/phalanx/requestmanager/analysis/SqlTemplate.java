package org.phalanx.requestmanager.analysis;

/**
 * A statement's template: its text with literals replaced by {@code ?}, comments dropped and
 * white space collapsed, so {@code SELECT * FROM t WHERE id = 42} and {@code ... id = 7} are
 * counted together in the SQL statistics.
 *
 * <p>Done with the lexer rather than JSqlParser: it runs once per distinct SQL text (a workload
 * with inlined literals has many), it must be cheap, and it must also work for statements the
 * parser cannot read.
 */
public final class SqlTemplate {
    private SqlTemplate() {
    }

    public static String of(String sql) {
        StringBuilder out = new StringBuilder(Math.min(sql.length(), 256));
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            int skipped = SqlLexer.skipNonCode(sql, i);
            if (skipped != i) {
                if (c == '\'') {
                    out.append('?'); // a string literal
                } else if (c == '"' || c == '`') {
                    out.append(sql, i, skipped); // a quoted identifier is part of the template
                } else {
                    space(out); // a comment
                }
                i = skipped;
                continue;
            }
            if (Character.isWhitespace(c)) {
                space(out);
                i++;
            } else if (SqlLexer.isWordStart(c) || c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                int j = i + 1;
                while (j < n && SqlLexer.isWordPart(sql.charAt(j))) {
                    j++;
                }
                out.append(sql, i, j); // a word, or a $1 placeholder
                i = j;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                i = endOfNumber(sql, i);
                out.append('?');
            } else {
                out.append(c);
                i++;
            }
        }
        int end = out.length();
        while (end > 0 && (out.charAt(end - 1) == ' ' || out.charAt(end - 1) == ';')) {
            end--;
        }
        out.setLength(end);
        return out.toString();
    }

    private static void space(StringBuilder out) {
        if (out.length() > 0 && out.charAt(out.length() - 1) != ' ') {
            out.append(' ');
        }
    }

    /** Past digits, a fraction and an exponent (1, 1.5, .5, 1e-3, 0x1F). */
    private static int endOfNumber(String sql, int i) {
        int n = sql.length();
        int j = i;
        while (j < n) {
            char c = sql.charAt(j);
            if (Character.isLetterOrDigit(c) || c == '.') {
                j++;
            } else if ((c == '-' || c == '+') && (sql.charAt(j - 1) == 'e' || sql.charAt(j - 1) == 'E')) {
                j++;
            } else {
                break;
            }
        }
        return j;
    }
}
