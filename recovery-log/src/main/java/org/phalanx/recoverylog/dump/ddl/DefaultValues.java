package org.phalanx.recoverylog.dump.ddl;

import java.sql.Types;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Turns the default value of a column, as an engine reports it ({@code COLUMN_DEF} or
 * {@code PRAGMA table_info}), into one portable form: a plain literal (a string without quotes, a
 * number, {@code true}/{@code false}), one of {@link #CURRENT_TIMESTAMP}, {@link #CURRENT_DATE},
 * {@link #CURRENT_TIME}, or null (no default, or an expression no other engine would understand —
 * dropped rather than copied verbatim, because DdlUtils would otherwise write e.g. a boolean's
 * {@code DEFAULT 1}, which PostgreSQL refuses).
 */
public final class DefaultValues {
    public static final String CURRENT_TIMESTAMP = "CURRENT_TIMESTAMP";
    public static final String CURRENT_DATE = "CURRENT_DATE";
    public static final String CURRENT_TIME = "CURRENT_TIME";

    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern CAST = Pattern.compile("::[a-zA-Z ]+(\\[\\])?(\\(\\d+(,\\d+)?\\))?$");

    private DefaultValues() {
    }

    /** Whether a default is one of the current-time markers (printed unquoted by our builders). */
    public static boolean isCurrentTime(String value) {
        return CURRENT_TIMESTAMP.equals(value) || CURRENT_DATE.equals(value) || CURRENT_TIME.equals(value);
    }

    /**
     * @param raw      the default as the engine reports it (SQL text), or null
     * @param typeCode the column's JDBC type
     */
    public static String normalize(String raw, int typeCode) {
        if (raw == null) {
            return null;
        }
        String v = raw.trim();
        while (v.startsWith("(") && v.endsWith(")") && v.length() > 1) {
            v = v.substring(1, v.length() - 1).trim(); // SQLite and MariaDB may parenthesise
        }
        v = CAST.matcher(v).replaceFirst("").trim(); // PostgreSQL: 'abc'::character varying
        if (v.isEmpty() || v.equalsIgnoreCase("NULL")) {
            return null;
        }
        String upper = v.toUpperCase(Locale.ROOT).replace(" ", "");
        if (upper.startsWith("CURRENT_TIMESTAMP") || upper.equals("NOW()") || upper.startsWith("LOCALTIMESTAMP")
                || upper.equals("DATETIME('NOW')") || upper.equals("DATETIME(\"NOW\")")) {
            return isTime(typeCode) ? CURRENT_TIMESTAMP : null;
        }
        if (upper.equals("CURRENT_DATE") || upper.equals("CURDATE()") || upper.equals("DATE('NOW')")) {
            return typeCode == Types.DATE ? CURRENT_DATE : null;
        }
        if (upper.startsWith("CURRENT_TIME") || upper.startsWith("CURTIME(") || upper.equals("TIME('NOW')")) {
            return typeCode == Types.TIME ? CURRENT_TIME : null;
        }
        String literal;
        if (v.length() >= 2 && (v.charAt(0) == '\'' || v.charAt(0) == '"') && v.charAt(v.length() - 1) == v.charAt(0)) {
            char q = v.charAt(0);
            literal = v.substring(1, v.length() - 1).replace("" + q + q, "" + q);
        } else if (v.length() >= 3 && (v.startsWith("b'") || v.startsWith("B'")) && v.endsWith("'")) {
            literal = v.substring(2, v.length() - 1); // MariaDB BIT literal b'1'
        } else if (NUMBER.matcher(v).matches() || upper.equals("TRUE") || upper.equals("FALSE")) {
            literal = v;
        } else {
            return null; // an expression (nextval(...), random(), ...): not portable
        }
        if (typeCode == Types.BIT || typeCode == Types.BOOLEAN) {
            return switch (literal.toLowerCase(Locale.ROOT)) {
                case "1", "true", "t", "y", "yes", "on" -> "true";
                case "0", "false", "f", "n", "no", "off" -> "false";
                default -> null;
            };
        }
        if (isNumeric(typeCode) && !NUMBER.matcher(literal).matches()) {
            return null;
        }
        return literal;
    }

    private static boolean isTime(int typeCode) {
        return typeCode == Types.TIMESTAMP || typeCode == Types.DATE || typeCode == Types.TIME;
    }

    static boolean isNumeric(int typeCode) {
        return switch (typeCode) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.DECIMAL, Types.NUMERIC,
                 Types.REAL, Types.FLOAT, Types.DOUBLE -> true;
            default -> false;
        };
    }
}
