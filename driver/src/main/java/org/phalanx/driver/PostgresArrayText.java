package org.phalanx.driver;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * PostgreSQL's text form of an array, {@code {1,2,NULL}}, {@code {"a b","say \"hi\""}},
 * {@code {{1,2},{3,4}}}: how an array value arrives from a PostgreSQL backend, and how one is sent
 * to it (as untyped text, which PostgreSQL reads as the array type the statement needs).
 */
final class PostgresArrayText {
    private PostgresArrayText() {
    }

    /**
     * The elements of an array literal: each a String, null for {@code NULL}, or a List for a
     * nested array. A leading dimension decoration ({@code [0:1]={...}}) is skipped.
     */
    static List<Object> parse(String literal) throws SQLException {
        int start = 0;
        if (literal.startsWith("[")) {
            start = literal.indexOf('=') + 1;
        }
        Reader reader = new Reader(literal, start);
        List<Object> elements = reader.array();
        reader.skipSpaces();
        if (reader.i != literal.length()) {
            throw malformed(literal);
        }
        return elements;
    }

    /** The literal of a Java array (of objects or primitives, nested for more dimensions). */
    static String format(Object array) {
        StringBuilder out = new StringBuilder();
        append(out, array);
        return out.toString();
    }

    private static void append(StringBuilder out, Object array) {
        out.append('{');
        int n = java.lang.reflect.Array.getLength(array);
        for (int k = 0; k < n; k++) {
            if (k > 0) {
                out.append(',');
            }
            Object e = java.lang.reflect.Array.get(array, k);
            if (e == null) {
                out.append("NULL");
            } else if (e.getClass().isArray() && !(e instanceof byte[])) {
                append(out, e);
            } else {
                appendElement(out, text(e));
            }
        }
        out.append('}');
    }

    private static String text(Object e) {
        if (e instanceof byte[] b) {
            return "\\x" + HexFormat.of().formatHex(b);
        } else if (e instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return e.toString();
    }

    /** Quoted where PostgreSQL would read it otherwise: empty, NULL, spaces, delimiters, quotes, backslashes. */
    private static void appendElement(StringBuilder out, String s) {
        boolean quote = s.isEmpty() || s.equalsIgnoreCase("NULL");
        for (int k = 0; k < s.length() && !quote; k++) {
            char c = s.charAt(k);
            quote = c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || Character.isWhitespace(c);
        }
        if (!quote) {
            out.append(s);
            return;
        }
        out.append('"');
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        out.append('"');
    }

    private static SQLException malformed(String literal) {
        return SqlExceptions.create("malformed array literal: " + literal, SqlExceptions.INVALID_TEXT_REPRESENTATION);
    }

    private static final class Reader {
        private final String s;
        private int i;

        Reader(String s, int i) {
            this.s = s;
            this.i = i;
        }

        void skipSpaces() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        List<Object> array() throws SQLException {
            skipSpaces();
            if (i >= s.length() || s.charAt(i) != '{') {
                throw malformed(s);
            }
            i++;
            List<Object> elements = new ArrayList<>();
            skipSpaces();
            if (i < s.length() && s.charAt(i) == '}') {
                i++;
                return elements;
            }
            while (true) {
                skipSpaces();
                if (i >= s.length()) {
                    throw malformed(s);
                }
                char c = s.charAt(i);
                if (c == '{') {
                    elements.add(array());
                } else if (c == '"') {
                    elements.add(quoted());
                } else {
                    String bare = bare();
                    elements.add(bare.equalsIgnoreCase("NULL") ? null : bare);
                }
                skipSpaces();
                if (i >= s.length()) {
                    throw malformed(s);
                }
                char next = s.charAt(i++);
                if (next == '}') {
                    return elements;
                }
                if (next != ',') {
                    throw malformed(s);
                }
            }
        }

        private String quoted() throws SQLException {
            StringBuilder out = new StringBuilder();
            i++; // the opening quote
            while (i < s.length()) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return out.toString();
                }
                if (c == '\\' && i < s.length()) {
                    c = s.charAt(i++);
                }
                out.append(c);
            }
            throw malformed(s);
        }

        private String bare() {
            int start = i;
            while (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != '}') {
                i++;
            }
            return s.substring(start, i).strip();
        }
    }
}
