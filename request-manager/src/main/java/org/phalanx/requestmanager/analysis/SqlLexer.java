package org.phalanx.requestmanager.analysis;

import java.util.Locale;

/**
 * The little lexing the analyser needs without a parser: words outside string literals,
 * quoted identifiers and comments.
 */
public final class SqlLexer {
    private SqlLexer() {
    }

    /**
     * Whether the statement's result may differ from one engine to another: it divides ({@code /}
     * in code: integer division, division by zero) or does interval arithmetic.
     */
    static boolean engineDependent(String sql) {
        return countInCode(sql, '/') > 0 || containsWord(sql, "interval");
    }

    /** The JDBC parameter markers ({@code ?}) in code, outside literals, quoted identifiers and comments. */
    public static int placeholders(String sql) {
        return countInCode(sql, '?');
    }

    /** How many times {@code c} appears in code, outside literals, quoted identifiers and comments. */
    private static int countInCode(String sql, char c) {
        int n = 0;
        int i = 0;
        while (i < sql.length()) {
            int skipped = skipNonCode(sql, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            if (sql.charAt(i) == c) {
                n++;
            }
            i++;
        }
        return n;
    }

    /** Index just past the string literal, quoted identifier or comment starting at i, or i if none does. */
    public static int skipNonCode(String sql, int i) {
        char c = sql.charAt(i);
        if (c == '\'' || c == '"' || c == '`') {
            int j = i + 1;
            while (j < sql.length()) {
                if (sql.charAt(j) == c) {
                    if (j + 1 < sql.length() && sql.charAt(j + 1) == c) {
                        j += 2; // doubled quote inside the literal
                        continue;
                    }
                    return j + 1;
                }
                if (c == '\'' && sql.charAt(j) == '\\' && j + 1 < sql.length()) {
                    j += 2; // MySQL-style backslash escape
                    continue;
                }
                j++;
            }
            return sql.length();
        }
        if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
            int end = sql.indexOf('\n', i);
            return end < 0 ? sql.length() : end + 1;
        }
        if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
            int end = sql.indexOf("*/", i + 2);
            return end < 0 ? sql.length() : end + 2;
        }
        return i;
    }

    /**
     * The statements of a text that holds several separated by semicolons (literals, comments and
     * PostgreSQL's dollar-quoted bodies skipped; empty ones left out), or an empty list when it holds
     * one. Bodies of MariaDB procedures or SQLite triggers ({@code BEGIN ...; ...; END}) are split
     * too: callers look at these only when the text's first statement is not DDL.
     */
    static java.util.List<String> statements(String sql) {
        java.util.List<String> pieces = new java.util.ArrayList<>();
        int start = 0;
        int i = 0;
        while (i < sql.length()) {
            int skipped = skipNonCode(sql, i);
            if (skipped == i) {
                skipped = skipDollarQuoted(sql, i);
            }
            if (skipped != i) {
                i = skipped;
                continue;
            }
            if (sql.charAt(i) == ';') {
                addStatement(pieces, sql.substring(start, i));
                start = i + 1;
            }
            i++;
        }
        addStatement(pieces, sql.substring(start));
        return pieces.size() > 1 ? pieces : java.util.List.of();
    }

    private static void addStatement(java.util.List<String> pieces, String piece) {
        if (!firstWord(piece).isEmpty()) {
            pieces.add(piece);
        }
    }

    /** Index just past the dollar-quoted string ({@code $$...$$}, {@code $tag$...$tag$}) starting at i, or i if none does. */
    private static int skipDollarQuoted(String sql, int i) {
        if (sql.charAt(i) != '$' || i > 0 && isWordPart(sql.charAt(i - 1))) {
            return i; // $1 placeholders and identifiers holding $ are not quotes
        }
        int j = i + 1;
        while (j < sql.length() && sql.charAt(j) != '$') {
            if (!isWordPart(sql.charAt(j)) || Character.isDigit(sql.charAt(j)) && j == i + 1) {
                return i;
            }
            j++;
        }
        if (j >= sql.length()) {
            return i;
        }
        String tag = sql.substring(i, j + 1);
        int end = sql.indexOf(tag, j + 1);
        return end < 0 ? sql.length() : end + tag.length();
    }

    /** The index of the parenthesis closing the one at {@code open}, literals and comments skipped; -1 if none. */
    static int closing(String sql, int open) {
        int depth = 0;
        int i = open;
        while (i < sql.length()) {
            int skipped = skipNonCode(sql, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            char c = sql.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
            i++;
        }
        return -1;
    }

    /** Index after "()" (whitespace allowed) starting at from, or -1. */
    static int emptyParensEnd(String sql, int from) {
        int k = skipSpaces(sql, from);
        if (k >= sql.length() || sql.charAt(k) != '(') {
            return -1;
        }
        k = skipSpaces(sql, k + 1);
        return k < sql.length() && sql.charAt(k) == ')' ? k + 1 : -1;
    }

    /** Whether a parenthesis opens at {@code from}, whitespace allowed before it: a call, after a function's name. */
    static boolean opensParenthesis(String sql, int from) {
        int k = skipSpaces(sql, from);
        return k < sql.length() && sql.charAt(k) == '(';
    }

    /** The index of the first non-whitespace character at or after {@code k} (the length if none). */
    static int skipSpaces(String sql, int k) {
        while (k < sql.length() && Character.isWhitespace(sql.charAt(k))) {
            k++;
        }
        return k;
    }

    /** What replaces a word of code, up to {@code end} (past the word: its parentheses, say). */
    record Replacement(String text, int end) {
    }

    /** Decides for the word between {@code start} and {@code end}: a replacement, or null to keep it. */
    @FunctionalInterface
    interface WordReplacer {
        Replacement at(String sql, int start, int end);
    }

    /**
     * {@code sql} with its words in code (outside string literals, quoted identifiers and comments)
     * replaced as {@code replacer} decides; the same string when none is.
     */
    static String replaceWords(String sql, WordReplacer replacer) {
        StringBuilder out = null;
        int copied = 0;
        int i = 0;
        while (i < sql.length()) {
            int skipped = skipNonCode(sql, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            if (!isWordStart(sql.charAt(i))) {
                i++;
                continue;
            }
            int end = wordEnd(sql, i);
            Replacement r = replacer.at(sql, i, end);
            if (r != null) {
                if (out == null) {
                    out = new StringBuilder(sql.length() + 32);
                }
                out.append(sql, copied, i).append(r.text());
                end = r.end();
                copied = end;
            }
            i = end;
        }
        return out == null ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /**
     * Whether {@code sql} may call one of {@code functions} (lower case): some word before a
     * parenthesis, literals and comments not skipped. A prefilter every statement can afford: it looks
     * only at the parentheses ({@code indexOf}), where a search for each name at every position cost
     * about 0.45 µs per name on a 60-character UPDATE.
     */
    public static boolean mayCall(String sql, java.util.Collection<String> functions) {
        for (int open = sql.indexOf('('); open >= 0; open = sql.indexOf('(', open + 1)) {
            int end = open;
            while (end > 0 && Character.isWhitespace(sql.charAt(end - 1))) {
                end--;
            }
            int start = end;
            while (start > 0 && isWordPart(sql.charAt(start - 1))) {
                start--;
            }
            for (String f : functions) {
                if (end - start == f.length() && sql.regionMatches(true, start, f, 0, f.length())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether {@code text} contains {@code word} in any case (no copy of the text made; the first
     * letter is compared before the rest: every statement may be scanned so).
     */
    public static boolean containsIgnoreCase(String text, String word) {
        char upper = Character.toUpperCase(word.charAt(0));
        char lower = Character.toLowerCase(word.charAt(0));
        for (int i = 0; i + word.length() <= text.length(); i++) {
            char c = text.charAt(i);
            if ((Character.toUpperCase(c) == upper || Character.toLowerCase(c) == lower)
                    && text.regionMatches(true, i, word, 0, word.length())) {
                return true;
            }
        }
        return false;
    }

    static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** Index just past the word that starts at i. */
    static int wordEnd(String sql, int i) {
        int j = i;
        while (j < sql.length() && isWordPart(sql.charAt(j))) {
            j++;
        }
        return j;
    }

    /** The first word of the statement in lower case ("" if none), skipping comments and parentheses. */
    public static String firstWord(String sql) {
        int i = 0;
        while (i < sql.length()) {
            int skipped = skipNonCode(sql, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            char c = sql.charAt(i);
            if (isWordStart(c)) {
                int j = wordEnd(sql, i);
                return sql.substring(i, j).toLowerCase(Locale.ROOT);
            }
            if (!Character.isWhitespace(c) && c != '(') {
                return "";
            }
            i++;
        }
        return "";
    }

    /** Whether the word (lower case) appears as a whole word in code. */
    public static boolean containsWord(String sql, String word) {
        int i = 0;
        while (i < sql.length()) {
            int skipped = skipNonCode(sql, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            if (isWordStart(sql.charAt(i))) {
                int j = wordEnd(sql, i);
                if (sql.substring(i, j).equalsIgnoreCase(word)) {
                    return true;
                }
                i = j;
                continue;
            }
            i++;
        }
        return false;
    }
}
