package org.phalanx.driver;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.NClob;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.UUID;

/**
 * JDBC's getter conversions between the wire value types (see ValueCodec: Boolean, Byte, Short,
 * Integer, Long, Float, Double, BigDecimal, String, byte[], LocalDate, LocalTime, LocalDateTime,
 * OffsetDateTime). Every method takes a non-null value; SQL NULL is handled by the caller.
 *
 * <p>Absolute instants (OffsetDateTime, epoch-millisecond numbers) become wall-clock values in
 * the JVM's zone, as {@code Timestamp.toLocalDateTime()} would show them.
 */
final class Conversions {
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private Conversions() {
    }

    static String toStringValue(Object v) {
        if (v instanceof String s) {
            return s;
        } else if (v instanceof BigDecimal d) {
            return d.toPlainString();
        } else if (v instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        } else if (v instanceof LocalTime t) {
            return DateTimes.format(t);
        } else if (v instanceof LocalDateTime t) {
            return DateTimes.format(t);
        } else if (v instanceof OffsetDateTime t) {
            return DateTimes.format(t);
        }
        return v.toString();
    }

    static boolean toBoolean(Object v) throws SQLException {
        if (v instanceof Boolean b) {
            return b;
        } else if (v instanceof BigDecimal d) {
            return d.signum() != 0;
        } else if (v instanceof Double || v instanceof Float) {
            return ((Number) v).doubleValue() != 0;
        } else if (v instanceof Number n) {
            return n.longValue() != 0;
        } else if (v instanceof String s) {
            switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "true", "t", "1", "yes", "y", "on":
                    return true;
                case "false", "f", "0", "no", "n", "off", "":
                    return false;
                default:
                    break;
            }
        }
        throw SqlExceptions.cannotConvert(v, "boolean");
    }

    static byte toByte(Object v) throws SQLException {
        return (byte) integral(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte");
    }

    static short toShort(Object v) throws SQLException {
        return (short) integral(v, Short.MIN_VALUE, Short.MAX_VALUE, "short");
    }

    static int toInt(Object v) throws SQLException {
        return (int) integral(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "int");
    }

    static long toLong(Object v) throws SQLException {
        return integral(v, Long.MIN_VALUE, Long.MAX_VALUE, "long");
    }

    /** Integral conversion: fractions are truncated toward zero, out-of-range values refused (22003). */
    private static long integral(Object v, long min, long max, String target) throws SQLException {
        long result;
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            result = ((Number) v).longValue();
        } else if (v instanceof Boolean b) {
            result = b ? 1 : 0;
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || d < -0x1p63 || d >= 0x1p63) {
                throw outOfRange(v, target);
            }
            result = (long) d;
        } else if (v instanceof BigDecimal d) {
            result = truncate(d, v, target);
        } else if (v instanceof String s) {
            String t = s.trim();
            try {
                result = Long.parseLong(t);
            } catch (NumberFormatException e) {
                try {
                    result = truncate(new BigDecimal(t), v, target);
                } catch (NumberFormatException e2) {
                    throw SqlExceptions.cannotConvert(v, target);
                }
            }
        } else {
            throw SqlExceptions.cannotConvert(v, target);
        }
        if (result < min || result > max) {
            throw outOfRange(v, target);
        }
        return result;
    }

    private static long truncate(BigDecimal d, Object original, String target) throws SQLException {
        BigDecimal whole = d.setScale(0, RoundingMode.DOWN);
        if (whole.compareTo(LONG_MIN) < 0 || whole.compareTo(LONG_MAX) > 0) {
            throw outOfRange(original, target);
        }
        return whole.longValueExact();
    }

    private static SQLException outOfRange(Object v, String target) {
        return SqlExceptions.create("value " + v + " is out of range for " + target, SqlExceptions.OUT_OF_RANGE);
    }

    static double toDouble(Object v) throws SQLException {
        if (v instanceof Number n) {
            return n.doubleValue();
        } else if (v instanceof Boolean b) {
            return b ? 1 : 0;
        } else if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                throw SqlExceptions.cannotConvert(v, "double");
            }
        }
        throw SqlExceptions.cannotConvert(v, "double");
    }

    static float toFloat(Object v) throws SQLException {
        if (v instanceof Float f) {
            return f;
        }
        return (float) toDouble(v);
    }

    static BigDecimal toBigDecimal(Object v) throws SQLException {
        try {
            if (v instanceof BigDecimal d) {
                return d;
            } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                return BigDecimal.valueOf(((Number) v).longValue());
            } else if (v instanceof Float f) {
                return new BigDecimal(Float.toString(f)); // 1.1f is "1.1", not 1.10000002384...
            } else if (v instanceof Double d) {
                return BigDecimal.valueOf(d);
            } else if (v instanceof Boolean b) {
                return b ? BigDecimal.ONE : BigDecimal.ZERO;
            } else if (v instanceof String s) {
                return new BigDecimal(s.trim());
            }
        } catch (NumberFormatException e) {
            throw SqlExceptions.cannotConvert(v, "BigDecimal");
        }
        throw SqlExceptions.cannotConvert(v, "BigDecimal");
    }

    static byte[] toBytes(Object v) throws SQLException {
        if (v instanceof byte[] b) {
            return b.clone();
        } else if (v instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        throw SqlExceptions.cannotConvert(v, "byte[]");
    }

    // ---- date and time ----------------------------------------------------------------------

    /**
     * The value as LocalDate, LocalTime, LocalDateTime, OffsetDateTime or Instant (for
     * epoch-millisecond numbers), parsing text.
     */
    private static Object temporal(Object v, String target) throws SQLException {
        if (v instanceof LocalDate || v instanceof LocalTime || v instanceof LocalDateTime
                || v instanceof OffsetDateTime || v instanceof Instant) {
            return v;
        } else if (v instanceof Long || v instanceof Integer) {
            return Instant.ofEpochMilli(((Number) v).longValue());
        } else if (v instanceof String s) {
            Object parsed = DateTimes.parse(s);
            if (parsed != null) {
                return parsed;
            }
        }
        throw SqlExceptions.cannotConvert(v, target);
    }

    /** An absolute instant as wall-clock time in a zone, or null if the value is not absolute. */
    private static LocalDateTime wallClock(Object t, ZoneId zone) {
        if (t instanceof OffsetDateTime o) {
            return o.atZoneSameInstant(zone).toLocalDateTime();
        } else if (t instanceof Instant i) {
            return LocalDateTime.ofInstant(i, zone);
        }
        return null;
    }

    static LocalDate toLocalDate(Object v, ZoneId zone) throws SQLException {
        Object t = temporal(v, "date");
        if (t instanceof LocalDate d) {
            return d;
        } else if (t instanceof LocalDateTime dt) {
            return dt.toLocalDate();
        } else if (t instanceof LocalTime) {
            throw SqlExceptions.cannotConvert(v, "date");
        }
        return wallClock(t, zone).toLocalDate();
    }

    static LocalTime toLocalTime(Object v, ZoneId zone) throws SQLException {
        Object t = temporal(v, "time");
        if (t instanceof LocalTime lt) {
            return lt;
        } else if (t instanceof LocalDateTime dt) {
            return dt.toLocalTime();
        } else if (t instanceof LocalDate) {
            throw SqlExceptions.cannotConvert(v, "time");
        }
        return wallClock(t, zone).toLocalTime();
    }

    static LocalDateTime toLocalDateTime(Object v, ZoneId zone) throws SQLException {
        Object t = temporal(v, "timestamp");
        if (t instanceof LocalDateTime dt) {
            return dt;
        } else if (t instanceof LocalDate d) {
            return d.atStartOfDay();
        } else if (t instanceof LocalTime lt) {
            return LocalDate.EPOCH.atTime(lt);
        }
        return wallClock(t, zone);
    }

    /** The absolute instant; wall-clock values are placed in the given zone. */
    static Instant toInstant(Object v, ZoneId zone) throws SQLException {
        Object t = temporal(v, "timestamp");
        if (t instanceof OffsetDateTime o) {
            return o.toInstant();
        } else if (t instanceof Instant i) {
            return i;
        }
        return toLocalDateTime(t, zone).atZone(zone).toInstant();
    }

    static OffsetDateTime toOffsetDateTime(Object v) throws SQLException {
        if (v instanceof OffsetDateTime o) {
            return o;
        }
        Object t = temporal(v, "OffsetDateTime");
        if (t instanceof OffsetDateTime o) {
            return o;
        }
        ZoneId zone = ZoneId.systemDefault();
        return toInstant(t, zone).atZone(zone).toOffsetDateTime();
    }

    static java.sql.Date toSqlDate(Object v, ZoneId zone) throws SQLException {
        return DateTimes.sqlDate(toLocalDate(v, zone), zone);
    }

    static Time toSqlTime(Object v, ZoneId zone) throws SQLException {
        return DateTimes.sqlTime(toLocalTime(v, zone), zone);
    }

    static Timestamp toSqlTimestamp(Object v, ZoneId zone) throws SQLException {
        Object t = temporal(v, "timestamp");
        if (t instanceof OffsetDateTime || t instanceof Instant) {
            return Timestamp.from(toInstant(t, zone));
        }
        return DateTimes.sqlTimestamp(toLocalDateTime(t, zone), zone);
    }

    // ---- objects ----------------------------------------------------------------------------

    /** getObject(): the natural Java type, with java.sql date/time classes for date/time values. */
    static Object toNatural(Object v) throws SQLException {
        ZoneId zone = ZoneId.systemDefault();
        if (v instanceof LocalDate d) {
            return java.sql.Date.valueOf(d);
        } else if (v instanceof LocalTime t) {
            return DateTimes.sqlTime(t, zone);
        } else if (v instanceof LocalDateTime t) {
            return Timestamp.valueOf(t);
        } else if (v instanceof OffsetDateTime t) {
            return Timestamp.from(t.toInstant());
        } else if (v instanceof byte[] b) {
            return b.clone();
        }
        return v;
    }

    /** getObject(column, type) for the classes applications commonly ask for. */
    static <T> T toClass(Object v, Class<T> type) throws SQLException {
        ZoneId zone = ZoneId.systemDefault();
        Object r;
        if (type == String.class) {
            r = toStringValue(v);
        } else if (type == Integer.class) {
            r = toInt(v);
        } else if (type == Long.class) {
            r = toLong(v);
        } else if (type == Boolean.class) {
            r = toBoolean(v);
        } else if (type == Double.class) {
            r = toDouble(v);
        } else if (type == Float.class) {
            r = toFloat(v);
        } else if (type == Short.class) {
            r = toShort(v);
        } else if (type == Byte.class) {
            r = toByte(v);
        } else if (type == BigDecimal.class) {
            r = toBigDecimal(v);
        } else if (type == BigInteger.class) {
            r = toBigDecimal(v).toBigInteger();
        } else if (type == byte[].class) {
            r = toBytes(v);
        } else if (type == LocalDate.class) {
            r = toLocalDate(v, zone);
        } else if (type == LocalTime.class) {
            r = toLocalTime(v, zone);
        } else if (type == LocalDateTime.class) {
            r = toLocalDateTime(v, zone);
        } else if (type == OffsetDateTime.class) {
            r = toOffsetDateTime(v);
        } else if (type == ZonedDateTime.class) {
            r = toOffsetDateTime(v).toZonedDateTime();
        } else if (type == OffsetTime.class) {
            r = v instanceof String s ? parseOffsetTime(s) : toOffsetDateTime(v).toOffsetTime();
        } else if (type == Instant.class) {
            r = toInstant(v, zone);
        } else if (type == java.sql.Date.class) {
            r = toSqlDate(v, zone);
        } else if (type == Time.class) {
            r = toSqlTime(v, zone);
        } else if (type == Timestamp.class || type == java.util.Date.class) {
            r = toSqlTimestamp(v, zone);
        } else if (type == Blob.class) {
            r = new MemoryBlob(toBytes(v));
        } else if (type == Clob.class || type == NClob.class) {
            r = new MemoryClob(toStringValue(v));
        } else if (type == UUID.class) {
            r = toUuid(v);
        } else {
            Object natural = toNatural(v);
            if (!type.isInstance(natural)) {
                throw SqlExceptions.cannotConvert(v, type.getName());
            }
            r = natural;
        }
        return type.cast(r);
    }

    private static OffsetTime parseOffsetTime(String s) throws SQLException {
        try {
            return OffsetTime.parse(s.trim());
        } catch (java.time.DateTimeException e) {
            throw SqlExceptions.cannotConvert(s, "OffsetTime");
        }
    }

    private static UUID toUuid(Object v) throws SQLException {
        if (v instanceof byte[] b && b.length == 16) {
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
            return new UUID(buf.getLong(), buf.getLong());
        } else if (v instanceof String s) {
            try {
                return UUID.fromString(s.trim());
            } catch (IllegalArgumentException e) {
                throw SqlExceptions.cannotConvert(v, "UUID");
            }
        }
        throw SqlExceptions.cannotConvert(v, "UUID");
    }
}
