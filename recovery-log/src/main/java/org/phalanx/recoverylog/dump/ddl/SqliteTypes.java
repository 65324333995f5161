package org.phalanx.recoverylog.dump.ddl;

import java.sql.Types;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps a SQLite declared column type (the text of CREATE TABLE, which only {@code TYPE_NAME} and
 * {@code PRAGMA table_info} keep; {@code getColumns()} reduces everything to INTEGER, VARCHAR or
 * FLOAT) to a JDBC type with size and scale. The names are checked in the order of SQLite's own
 * affinity rules, so "DATETIME" is a timestamp and not a date, and "POINT" is not an integer.
 */
public final class SqliteTypes {
    private static final Pattern SIZE = Pattern.compile("\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");

    /** A JDBC type code with its size and scale (null when the declaration has none). */
    public record Mapped(int typeCode, Integer size, Integer scale) {
    }

    private SqliteTypes() {
    }

    public static Mapped map(String declared) {
        String t = declared == null ? "" : declared.trim().toUpperCase(Locale.ROOT);
        Integer size = null;
        Integer scale = null;
        String name = t;
        Matcher m = SIZE.matcher(t);
        if (m.find()) {
            size = Integer.valueOf(m.group(1));
            scale = m.group(2) == null ? null : Integer.valueOf(m.group(2));
            name = t.substring(0, m.start()).trim();
        }
        if (name.contains("INT")) {
            if (name.contains("BIG")) {
                return new Mapped(Types.BIGINT, null, null);
            }
            if (name.contains("TINY")) {
                return new Mapped(Types.TINYINT, null, null);
            }
            if (name.contains("SMALL")) {
                return new Mapped(Types.SMALLINT, null, null);
            }
            return new Mapped(Types.INTEGER, null, null);
        }
        if (name.contains("CLOB")) {
            return new Mapped(Types.CLOB, null, null);
        }
        if (name.contains("CHAR")) {
            // SQLite never pads CHAR(n): VARCHAR(n) keeps the values identical on engines that would
            return size == null ? new Mapped(Types.LONGVARCHAR, null, null) : new Mapped(Types.VARCHAR, size, null);
        }
        if (name.contains("TEXT")) {
            return new Mapped(Types.LONGVARCHAR, null, null);
        }
        if (name.isEmpty()) {
            return new Mapped(Types.LONGVARCHAR, null, null); // untyped: values read as text
        }
        if (name.contains("BLOB")) {
            return new Mapped(Types.LONGVARBINARY, null, null);
        }
        if (name.contains("BINARY")) {
            return size == null ? new Mapped(Types.LONGVARBINARY, null, null) : new Mapped(Types.VARBINARY, size, null);
        }
        // SQLite's REAL is an 8-byte double, whatever it is called
        if (name.contains("REAL") || name.contains("FLOA") || name.contains("DOUB")) {
            return new Mapped(Types.DOUBLE, null, null);
        }
        if (name.contains("BOOL")) {
            return new Mapped(Types.BIT, 1, null);
        }
        if (name.equals("DATETIME") || name.startsWith("TIMESTAMP")) {
            return new Mapped(Types.TIMESTAMP, null, null);
        }
        if (name.equals("DATE")) {
            return new Mapped(Types.DATE, null, null);
        }
        if (name.equals("TIME")) {
            return new Mapped(Types.TIME, null, null);
        }
        if (name.contains("DEC")) {
            return new Mapped(Types.DECIMAL, size, size == null ? null : (scale == null ? 0 : scale));
        }
        if (name.contains("NUM")) {
            return new Mapped(Types.NUMERIC, size, size == null ? null : (scale == null ? 0 : scale));
        }
        // any other name (JSON, UUID, ...) holds what it was given; text is the portable reading
        return new Mapped(Types.LONGVARCHAR, null, null);
    }
}
