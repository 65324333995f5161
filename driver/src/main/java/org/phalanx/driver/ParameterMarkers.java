package org.phalanx.driver;

/**
 * Counts the '?' parameter markers of a statement, skipping those inside string literals
 * ('...', E'...' with backslash escapes), quoted identifiers ("...", `...`), dollar-quoted
 * strings ($$...$$, $tag$...$tag$) and comments (-- and nested /* *&#47;).
 *
 * <p>The count lets the driver report an unset parameter (07001) before any network traffic.
 */
final class ParameterMarkers {
    private ParameterMarkers() {
    }

    static int count(String sql) {
        int count = 0;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            switch (c) {
                case '?' -> {
                    count++;
                    i++;
                }
                case '\'' -> i = skipQuoted(sql, i, '\'', isEscapeString(sql, i));
                case '"', '`' -> i = skipQuoted(sql, i, c, false);
                case '-' -> i = i + 1 < n && sql.charAt(i + 1) == '-' ? skipLine(sql, i) : i + 1;
                case '/' -> i = i + 1 < n && sql.charAt(i + 1) == '*' ? skipBlockComment(sql, i) : i + 1;
                case '$' -> i = skipDollarQuoted(sql, i);
                default -> i++;
            }
        }
        return count;
    }

    /** PostgreSQL E'...' strings use backslash escapes. */
    private static boolean isEscapeString(String sql, int quote) {
        if (quote == 0 || Character.toUpperCase(sql.charAt(quote - 1)) != 'E') {
            return false;
        }
        return quote == 1 || !Character.isJavaIdentifierPart(sql.charAt(quote - 2));
    }

    /** Returns the index after the closing quote; a doubled quote is an escaped one. */
    private static int skipQuoted(String sql, int start, char quote, boolean backslashEscapes) {
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return sql.length();
    }

    private static int skipLine(String sql, int start) {
        int nl = sql.indexOf('\n', start);
        return nl < 0 ? sql.length() : nl + 1;
    }

    private static int skipBlockComment(String sql, int start) {
        int depth = 0;
        int i = start;
        while (i < sql.length()) {
            if (sql.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (sql.startsWith("*/", i)) {
                depth--;
                i += 2;
                if (depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return sql.length();
    }

    /** $tag$...$tag$ where tag is empty or an identifier not starting with a digit ($1 is a marker elsewhere). */
    private static int skipDollarQuoted(String sql, int start) {
        if (start > 0 && Character.isJavaIdentifierPart(sql.charAt(start - 1))) {
            return start + 1; // part of an identifier such as a$b
        }
        int end = start + 1;
        while (end < sql.length() && sql.charAt(end) != '$') {
            char c = sql.charAt(end);
            boolean ok = end == start + 1 ? Character.isLetter(c) || c == '_' : Character.isLetterOrDigit(c) || c == '_';
            if (!ok) {
                return start + 1;
            }
            end++;
        }
        if (end >= sql.length()) {
            return start + 1;
        }
        String tag = sql.substring(start, end + 1);
        int close = sql.indexOf(tag, end + 1);
        return close < 0 ? sql.length() : close + tag.length();
    }
}
