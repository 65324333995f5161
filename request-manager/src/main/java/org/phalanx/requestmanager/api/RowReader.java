package org.phalanx.requestmanager.api;


import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import org.phalanx.engine.SqlState;

/**
 * Reads the current row of a backend ResultSet into canonical Java values (the types the wire
 * protocol encodes), for the client and for the result cache alike. The getter is chosen by the
 * column's declared JDBC type, never left to the backend driver's getObject, so every backend
 * engine yields the same Java types for the same SQL types. When the typed getter fails (SQLite
 * declares types loosely: a DATE column may hold any text) the value falls back to getObject
 * (ISO-8601 text in a date/time column still becomes a date/time).
 * NULLs become {@link TypedNull} carrying the column type.
 */
public final class RowReader {
    private final int[] jdbcTypes;

    public RowReader(int[] jdbcTypes) {
        this.jdbcTypes = jdbcTypes.clone();
    }

    /** A reader for the columns the metadata declares (a column whose type cannot be read counts as OTHER). */
    public static RowReader of(ResultSetMetaData md) throws SQLException {
        int[] types = new int[md.getColumnCount()];
        for (int i = 0; i < types.length; i++) {
            try {
                types[i] = readAs(md.getColumnType(i + 1), md.getColumnTypeName(i + 1), md.getPrecision(i + 1));
            } catch (SQLException | RuntimeException e) {
                types[i] = Types.OTHER;
            }
        }
        return new RowReader(types);
    }

    /**
     * The type a column's values are read as: its JDBC type, with these exceptions, where that type
     * would lose the value:
     * <ul>
     *   <li>a PostgreSQL {@code timestamptz} (which pgjdbc calls a TIMESTAMP) as the instant it is, not
     *       as a wall-clock time in the controller's zone: the client's driver shows it in its own
     *       zone, as pgjdbc does;</li>
     *   <li>MariaDB's {@code BIT(n)} wider than one bit (Connector/J's BIT) as its bytes, not as a boolean;</li>
     *   <li>a column MariaDB's Connector/J calls {@code BOOLEAN} ({@code TINYINT(1)}, which holds -128..127)
     *       as its number where that is not 0 or 1 ({@link #NUMBERED_BOOLEAN}; the client's driver still
     *       answers getObject with a Boolean, as Connector/J);</li>
     *   <li>MariaDB's {@code YEAR} (a DATE to Connector/J) as its number;</li>
     *   <li>MariaDB's {@code BIGINT UNSIGNED} as a decimal: a long turned values from 2^63 on negative
     *       (the client's driver answers getObject with a BigInteger, as Connector/J).</li>
     * </ul>
     */
    public static int readAs(int jdbcType, String typeName, int precision) {
        if (jdbcType == Types.TIMESTAMP && "timestamptz".equalsIgnoreCase(typeName)) {
            return Types.TIMESTAMP_WITH_TIMEZONE;
        }
        if (jdbcType == Types.BIT && precision > 1 && "BIT".equals(typeName)) {
            return Types.VARBINARY;
        }
        if (jdbcType == Types.BOOLEAN && "BOOLEAN".equals(typeName)) {
            return NUMBERED_BOOLEAN;
        }
        if (jdbcType == Types.DATE && "YEAR".equals(typeName)) {
            return Types.SMALLINT;
        }
        if (jdbcType == Types.BIGINT && "BIGINT UNSIGNED".equals(typeName)) {
            return Types.DECIMAL;
        }
        return jdbcType;
    }

    /**
     * Read as a boolean, but kept as the number it is where that is neither 0 nor 1 (MariaDB's
     * {@code TINYINT(1)} holding 2): a type code no JDBC type uses.
     */
    static final int NUMBERED_BOOLEAN = Integer.MIN_VALUE + 16;

    /**
     * A copy of the metadata that outlives the backend result (cached results are served long
     * after it is closed). Properties a driver cannot report keep neutral defaults.
     */
    public static ResultSetMetaData detach(ResultSetMetaData md) throws SQLException {
        int n = md.getColumnCount();
        DetachedMetaData.Column[] columns = new DetachedMetaData.Column[n];
        for (int i = 1; i <= n; i++) {
            int c = i;
            columns[i - 1] = new DetachedMetaData.Column(
                    guard(() -> md.getColumnLabel(c), ""),
                    guard(() -> md.getColumnName(c), ""),
                    guard(() -> md.getTableName(c), ""),
                    guard(() -> md.getSchemaName(c), ""),
                    guard(() -> md.getCatalogName(c), ""),
                    guard(() -> md.getColumnType(c), Types.OTHER),
                    guard(() -> md.getColumnTypeName(c), ""),
                    Math.max(0, guard(() -> md.getPrecision(c), 0)),
                    Math.max(0, guard(() -> md.getScale(c), 0)),
                    guard(() -> md.isNullable(c), ResultSetMetaData.columnNullableUnknown),
                    guard(() -> md.isAutoIncrement(c), false),
                    guard(() -> md.isSigned(c), true),
                    Math.max(0, guard(() -> md.getColumnDisplaySize(c), 0)),
                    guard(() -> md.getColumnClassName(c), null));
        }
        return new DetachedMetaData(columns);
    }

    private interface Property<T> {
        T get() throws SQLException;
    }

    private static <T> T guard(Property<T> property, T fallback) {
        try {
            T value = property.get();
            return value == null ? fallback : value;
        } catch (SQLException | RuntimeException e) {
            return fallback;
        }
    }

    public int columnCount() {
        return jdbcTypes.length;
    }

    public Object[] read(ResultSet rs) throws SQLException {
        Object[] row = new Object[jdbcTypes.length];
        for (int i = 0; i < jdbcTypes.length; i++) {
            row[i] = value(rs, i + 1, jdbcTypes[i]);
        }
        return row;
    }

    private static Object value(ResultSet rs, int column, int jdbcType) throws SQLException {
        Object v;
        try {
            v = typed(rs, column, jdbcType);
        } catch (SQLException | RuntimeException e) {
            v = looselyTyped(toWire(rs.getObject(column)), jdbcType);
        }
        return v == null || rs.wasNull() ? new TypedNull(jdbcType == NUMBERED_BOOLEAN ? Types.BOOLEAN : jdbcType) : v;
    }

    /**
     * A value the typed getter refused. SQLite keeps dates as ISO-8601 text, which its driver's
     * getDate does not parse ("2024-02-29" fails); such text still becomes a date. Anything
     * else stays as the backend gave it.
     */
    private static Object looselyTyped(Object v, int jdbcType) {
        if (!(v instanceof String text)) {
            return v;
        }
        try {
            switch (jdbcType) {
                case Types.DATE:
                    return LocalDate.parse(text);
                case Types.TIME:
                    return LocalTime.parse(text);
                case Types.TIMESTAMP:
                    return LocalDateTime.parse(text.replace(' ', 'T'));
                default:
                    return v;
            }
        } catch (DateTimeParseException e) {
            return v;
        }
    }

    /** MariaDB's TIME is a duration: beyond a day, or negative, it stays text ({@code 838:59:59}). */
    private static final java.util.regex.Pattern DURATION = java.util.regex.Pattern.compile("-?\\d{2,3}:\\d{2}:\\d{2}(\\.\\d+)?");

    /**
     * A TIME with its fraction of a second ({@code java.sql.Time} has none): the engine's text when
     * it is a time of day (PostgreSQL's, MariaDB's), that text itself when it is a duration no time
     * of day can hold (MariaDB's {@code 838:59:59}, {@code -01:30:00}), else the driver's Time
     * (SQLite's, kept as it stores it).
     */
    private static Object time(ResultSet rs, int c) throws SQLException {
        String text = rs.getString(c);
        if (text == null) {
            return null;
        }
        try {
            return LocalTime.parse(text);
        } catch (DateTimeParseException e) {
            if (DURATION.matcher(text).matches()) {
                return text;
            }
        }
        Time t = rs.getTime(c);
        return t == null ? null : t.toLocalTime();
    }

    private static Object typed(ResultSet rs, int c, int jdbcType) throws SQLException {
        switch (jdbcType) {
            case Types.DATE: {
                java.sql.Date d = rs.getDate(c);
                return d == null ? null : d.toLocalDate();
            }
            case Types.TIME:
                return time(rs, c);
            case Types.TIMESTAMP: {
                Timestamp t = rs.getTimestamp(c);
                return t == null ? null : t.toLocalDateTime();
            }
            case Types.TIMESTAMP_WITH_TIMEZONE: {
                OffsetDateTime t = rs.getObject(c, OffsetDateTime.class);
                if (t == null || !t.equals(OffsetDateTime.MAX) && !t.equals(OffsetDateTime.MIN)) {
                    return t;
                }
                // PostgreSQL's infinity (pgjdbc's MAX/MIN, beyond a Timestamp): its far date, as getTimestamp gives it
                return rs.getTimestamp(c).toInstant().atOffset(ZoneOffset.UTC);
            }
            case Types.DECIMAL:
            case Types.NUMERIC:
                return rs.getBigDecimal(c);
            case Types.BINARY:
            case Types.VARBINARY:
            case Types.LONGVARBINARY:
            case Types.BLOB:
                return rs.getBytes(c);
            case Types.CHAR:
            case Types.VARCHAR:
            case Types.LONGVARCHAR:
            case Types.NCHAR:
            case Types.NVARCHAR:
            case Types.LONGNVARCHAR:
            case Types.CLOB:
            case Types.NCLOB:
            case Types.SQLXML:
                return rs.getString(c);
            case Types.BOOLEAN:
            case Types.BIT:
                return rs.getBoolean(c);
            case NUMBERED_BOOLEAN: {
                String text = rs.getString(c);
                if (text == null) {
                    return null;
                }
                if (!text.isEmpty() && (Character.isDigit(text.charAt(0)) || text.charAt(0) == '-')) {
                    int n = Integer.parseInt(text);
                    return n == 0 || n == 1 ? (Object) (n == 1) : (Object) n;
                }
                return rs.getBoolean(c); // PostgreSQL's t, true (a heterogeneous virtual database's column)
            }
            case Types.TINYINT:
            case Types.SMALLINT:
                // JDBC maps both to Integer; getInt also covers unsigned TINYINT (0..255)
                return rs.getInt(c);
            case Types.INTEGER: {
                // read wide: SQLite's getInt silently truncates 64-bit values stored in INTEGER
                // columns, and unsigned INT overflows int on MariaDB
                long v = rs.getLong(c);
                if ((int) v == v) {
                    return (int) v;
                }
                return v; // (not a ?: expression: it would promote the Integer branch to Long)
            }
            case Types.BIGINT:
                return rs.getLong(c);
            case Types.REAL: {
                // SQLite's REAL holds 8 bytes though its driver says REAL, and answers a Double:
                // 0.123456789012345 or 1e300 would lose digits as a float (PostgreSQL's and MariaDB's are floats)
                Object v = rs.getObject(c);
                if (v instanceof Double d) {
                    return d;
                }
                return rs.getFloat(c);
            }
            case Types.FLOAT:
            case Types.DOUBLE:
                return rs.getDouble(c);
            default:
                return toWire(rs.getObject(c));
        }
    }

    /** Maps what a driver's getObject returned to a type the wire encodes; anything else as text. */
    static Object toWire(Object v) throws SQLException {
        if (v == null || v instanceof String || v instanceof Integer || v instanceof Long || v instanceof Double
                || v instanceof Boolean || v instanceof BigDecimal || v instanceof byte[] || v instanceof Float
                || v instanceof Short || v instanceof Byte || v instanceof LocalDate || v instanceof LocalTime
                || v instanceof LocalDateTime || v instanceof OffsetDateTime) {
            return v;
        }
        if (v instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (v instanceof Time t) {
            return t.toLocalTime();
        }
        if (v instanceof Timestamp t) {
            return t.toLocalDateTime();
        }
        if (v instanceof java.util.Date d) {
            return new Timestamp(d.getTime()).toLocalDateTime();
        }
        if (v instanceof Instant i) {
            return OffsetDateTime.ofInstant(i, ZoneOffset.UTC);
        }
        if (v instanceof ZonedDateTime z) {
            return z.toOffsetDateTime();
        }
        if (v instanceof Blob b) {
            try {
                return b.getBytes(1, Math.toIntExact(b.length()));
            } catch (ArithmeticException e) {
                throw new SQLException("BLOB of " + b.length() + " bytes is too large to send",
                        SqlState.PROGRAM_LIMIT_EXCEEDED.code());
            } finally {
                free(b::free);
            }
        }
        if (v instanceof Clob c) {
            try {
                return c.getSubString(1, Math.toIntExact(c.length()));
            } catch (ArithmeticException e) {
                throw new SQLException("CLOB of " + c.length() + " characters is too large to send",
                        SqlState.PROGRAM_LIMIT_EXCEEDED.code());
            } finally {
                free(c::free);
            }
        }
        return v.toString();
    }

    private interface Release {
        void run() throws SQLException;
    }

    /** The value is already read; a driver that cannot free a LOB early frees it with its result. */
    private static void free(Release release) {
        try {
            release.run();
        } catch (SQLException | RuntimeException | AbstractMethodError e) {
            // nothing more to do
        }
    }
}
