package org.phalanx.recoverylog.dump;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Locale;
import org.apache.ddlutils.model.Column;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.dump.ddl.SqliteValues;

/**
 * A column value as text in the data XML, exact for every type a portable dump carries:
 *
 * <pre>
 * BIT/BOOLEAN                   true | false
 * TINYINT..BIGINT               decimal integer
 * DECIMAL/NUMERIC               BigDecimal.toPlainString (no exponent; the scale is kept)
 * REAL                          Float.toString (the shortest text that reads back to the same float)
 * FLOAT/DOUBLE                  Double.toString
 * CHAR/VARCHAR/LONGVARCHAR/CLOB the string
 * BINARY/VARBINARY/LONGVARBINARY/BLOB  base64
 * DATE                          yyyy-MM-dd
 * TIME                          HH:mm:ss[.fraction]
 * TIMESTAMP                     yyyy-MM-dd HH:mm:ss[.fraction]   (timestamptz: in UTC)
 * </pre>
 *
 * Reading goes through the JDBC getter that loses nothing on each engine (java.time objects on
 * PostgreSQL and MariaDB, the raw stored value on SQLite, whose column types are only advisory);
 * a value that does not fit its declared type fails the dump naming table, column and value
 * instead of being silently changed.
 */
final class ValueText {
    private ValueText() {
    }

    static boolean isBinary(int typeCode) {
        return typeCode == Types.BINARY || typeCode == Types.VARBINARY || typeCode == Types.LONGVARBINARY
                || typeCode == Types.BLOB;
    }

    static boolean isText(int typeCode) {
        return typeCode == Types.CHAR || typeCode == Types.VARCHAR || typeCode == Types.LONGVARCHAR
                || typeCode == Types.CLOB;
    }

    /**
     * @param nativeType the column's type name from the result set metadata (tells timestamptz apart)
     */
    static String read(ResultSet rs, int i, Column column, Engine engine, String nativeType) throws SQLException {
        int type = column.getTypeCode();
        if (engine == Engine.SQLITE) {
            Object raw = isBinary(type) ? rs.getBytes(i) : rs.getObject(i);
            return raw == null ? null : fromSqlite(raw, type);
        }
        String text = switch (type) {
            case Types.BIT, Types.BOOLEAN -> {
                boolean v = rs.getBoolean(i);
                yield rs.wasNull() ? null : Boolean.toString(v);
            }
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> {
                long v = rs.getLong(i);
                yield rs.wasNull() ? null : Long.toString(v);
            }
            case Types.DECIMAL, Types.NUMERIC -> {
                BigDecimal v = rs.getBigDecimal(i);
                yield v == null ? null : v.toPlainString();
            }
            case Types.REAL -> {
                float v = rs.getFloat(i);
                yield rs.wasNull() ? null : Float.toString(v);
            }
            case Types.FLOAT, Types.DOUBLE -> {
                double v = rs.getDouble(i);
                yield rs.wasNull() ? null : Double.toString(v);
            }
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> {
                byte[] v = rs.getBytes(i);
                yield v == null ? null : Base64.getEncoder().encodeToString(v);
            }
            case Types.DATE -> {
                LocalDate v = rs.getObject(i, LocalDate.class);
                yield v == null ? null : SqliteValues.dateText(v);
            }
            case Types.TIME -> {
                LocalTime v = rs.getObject(i, LocalTime.class);
                yield v == null ? null : SqliteValues.timeText(v);
            }
            case Types.TIMESTAMP -> {
                LocalDateTime v;
                if (nativeType != null && nativeType.toLowerCase(Locale.ROOT).contains("tz")) {
                    OffsetDateTime t = rs.getObject(i, OffsetDateTime.class);
                    v = t == null ? null : t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
                } else {
                    v = rs.getObject(i, LocalDateTime.class);
                }
                yield v == null ? null : SqliteValues.timestampText(v);
            }
            default -> rs.getString(i);
        };
        return text;
    }

    private static String fromSqlite(Object raw, int type) {
        switch (type) {
            case Types.BIT, Types.BOOLEAN:
                return Boolean.toString(SqliteValues.parseBoolean(raw));
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT:
                if (raw instanceof Integer || raw instanceof Long) {
                    return raw.toString();
                }
                if (raw instanceof Double d && d == Math.rint(d) && Math.abs(d) < 9.007199254740992E15) {
                    return Long.toString(d.longValue());
                }
                try {
                    return Long.toString(Long.parseLong(raw.toString().trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + raw + "' is not an integer");
                }
            case Types.DECIMAL, Types.NUMERIC:
                return SqliteValues.parseDecimal(raw).toPlainString();
            case Types.REAL, Types.FLOAT, Types.DOUBLE:
                if (raw instanceof Number n) {
                    return Double.toString(n.doubleValue());
                }
                try {
                    return Double.toString(Double.parseDouble(raw.toString().trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + raw + "' is not a number");
                }
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB:
                return Base64.getEncoder().encodeToString((byte[]) raw);
            case Types.DATE:
                return SqliteValues.dateText(SqliteValues.parseDate(raw));
            case Types.TIME:
                return SqliteValues.timeText(SqliteValues.parseTime(raw));
            case Types.TIMESTAMP:
                return SqliteValues.timestampText(SqliteValues.parseTimestamp(raw));
            default:
                if (raw instanceof byte[]) {
                    throw new IllegalArgumentException("a blob is stored in this " + type + " column; declare it BLOB");
                }
                return raw.toString();
        }
    }

    /** Binds the text of a value (null for NULL) as the target engine wants the column's type. */
    static void bind(PreparedStatement ps, int i, Column column, Engine engine, String text) throws SQLException {
        int type = column.getTypeCode();
        if (text == null) {
            ps.setNull(i, nullType(type, engine));
            return;
        }
        switch (type) {
            case Types.BIT, Types.BOOLEAN -> {
                boolean v = parseBoolean(text);
                if (engine == Engine.SQLITE) {
                    ps.setInt(i, v ? 1 : 0);
                } else {
                    ps.setBoolean(i, v);
                }
            }
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER -> {
                long v = Long.parseLong(text);
                if (v != (int) v) {
                    throw new IllegalArgumentException(text + " does not fit an integer column");
                }
                ps.setInt(i, (int) v);
            }
            case Types.BIGINT -> ps.setLong(i, Long.parseLong(text));
            case Types.DECIMAL, Types.NUMERIC -> ps.setBigDecimal(i, new BigDecimal(text));
            case Types.REAL -> {
                if (engine == Engine.SQLITE) {
                    ps.setDouble(i, Double.parseDouble(text));
                } else {
                    ps.setFloat(i, Float.parseFloat(text));
                }
            }
            case Types.FLOAT, Types.DOUBLE -> ps.setDouble(i, Double.parseDouble(text));
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB ->
                    ps.setBytes(i, Base64.getDecoder().decode(text));
            case Types.DATE -> {
                if (engine == Engine.SQLITE) {
                    ps.setString(i, text);
                } else {
                    ps.setObject(i, LocalDate.parse(text));
                }
            }
            case Types.TIME -> {
                if (engine == Engine.SQLITE) {
                    ps.setString(i, text);
                } else {
                    ps.setObject(i, LocalTime.parse(text));
                }
            }
            case Types.TIMESTAMP -> {
                if (engine == Engine.SQLITE) {
                    ps.setString(i, text);
                } else {
                    ps.setObject(i, SqliteValues.parseTimestamp(text));
                }
            }
            default -> ps.setString(i, text);
        }
    }

    private static int nullType(int type, Engine engine) {
        if (engine == Engine.SQLITE) {
            return Types.NULL;
        }
        return type == Types.BIT && engine == Engine.POSTGRESQL ? Types.BOOLEAN : type;
    }

    private static boolean parseBoolean(String text) {
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("'" + text + "' is not true or false");
        };
    }
}
