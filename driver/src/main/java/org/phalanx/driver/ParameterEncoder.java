package org.phalanx.driver;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Struct;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Calendar;
import java.util.UUID;

import org.phalanx.protocol.Untyped;
import org.phalanx.protocol.SqlNull;

/**
 * Turns what an application binds into a wire value (the types ValueCodec encodes). Every
 * conversion is explicit: no Java serialization ever reaches the wire.
 */
final class ParameterEncoder {
    private ParameterEncoder() {
    }

    /** setObject(x): the wire value for a Java object, by its class. */
    static Object fromObject(Object x) throws SQLException {
        if (x == null) {
            return new SqlNull(Types.NULL);
        } else if (x instanceof String || x instanceof Integer || x instanceof Long || x instanceof Boolean
                || x instanceof Double || x instanceof BigDecimal || x instanceof Short || x instanceof Byte
                || x instanceof Float || x instanceof LocalDate || x instanceof LocalTime
                || x instanceof LocalDateTime || x instanceof OffsetDateTime || x instanceof SqlNull) {
            return x;
        } else if (x instanceof byte[] b) {
            return b.clone();
        } else if (x instanceof BigInteger b) {
            return new BigDecimal(b);
        } else if (x instanceof Character c) {
            return c.toString();
        } else if (x instanceof java.sql.Date d) {
            return d.toLocalDate();
        } else if (x instanceof Time t) {
            return DateTimes.localTime(t, ZoneId.systemDefault());
        } else if (x instanceof Timestamp t) {
            return t.toLocalDateTime();
        } else if (x instanceof java.util.Date d) {
            return new Timestamp(d.getTime()).toLocalDateTime();
        } else if (x instanceof Instant i) {
            return i.atOffset(ZoneOffset.UTC);
        } else if (x instanceof ZonedDateTime z) {
            return z.toOffsetDateTime();
        } else if (x instanceof OffsetTime t) {
            return t.toString(); // no wire type for a time with offset; ISO text casts on every engine
        } else if (x instanceof Calendar c) {
            return OffsetDateTime.ofInstant(c.toInstant(), c.getTimeZone().toZoneId());
        } else if (x instanceof UUID u) {
            return new Untyped(u.toString()); // as pgjdbc sends it: PostgreSQL takes it as a uuid
        } else if (x instanceof Blob b) {
            return blobBytes(b);
        } else if (x instanceof Clob c) {
            return clobString(c);
        } else if (x instanceof InputStream in) {
            return readBytes(in, -1);
        } else if (x instanceof Reader r) {
            return readChars(r, -1);
        } else if (x instanceof Array || x instanceof Struct || x instanceof Ref || x instanceof SQLXML
                || x instanceof RowId) {
            throw SqlExceptions.notSupported(x.getClass().getSimpleName() + " parameters");
        }
        throw SqlExceptions.create("cannot bind a parameter of type " + x.getClass().getName(),
                SqlExceptions.INVALID_ARGUMENT);
    }

    /** setObject(x, targetSqlType[, scaleOrLength]): converts to the Java type the SQL type maps to. */
    static Object convert(Object x, int targetSqlType, int scale) throws SQLException {
        if (x == null) {
            return new SqlNull(targetSqlType);
        }
        Object v = fromObject(x);
        if (v instanceof SqlNull) {
            return new SqlNull(targetSqlType);
        }
        if (v instanceof Untyped u) {
            v = u.text(); // a UUID given a type: its text converts to it
        }
        ZoneId zone = ZoneId.systemDefault();
        return switch (targetSqlType) {
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR,
                    Types.CLOB, Types.NCLOB -> Conversions.toStringValue(v);
            case Types.BIT, Types.BOOLEAN -> Conversions.toBoolean(v);
            case Types.TINYINT, Types.SMALLINT -> Conversions.toShort(v); // TINYINT is unsigned on some engines
            case Types.INTEGER -> Conversions.toInt(v);
            case Types.BIGINT -> Conversions.toLong(v);
            case Types.REAL -> Conversions.toFloat(v);
            case Types.FLOAT, Types.DOUBLE -> Conversions.toDouble(v);
            case Types.DECIMAL, Types.NUMERIC -> {
                BigDecimal d = Conversions.toBigDecimal(v);
                yield scale >= 0 ? d.setScale(scale, RoundingMode.HALF_UP) : d;
            }
            case Types.DATE -> Conversions.toLocalDate(v, zone);
            case Types.TIME -> Conversions.toLocalTime(v, zone);
            case Types.TIMESTAMP -> Conversions.toLocalDateTime(v, zone);
            case Types.TIMESTAMP_WITH_TIMEZONE -> Conversions.toOffsetDateTime(v);
            case Types.TIME_WITH_TIMEZONE -> v instanceof String ? v : Conversions.toOffsetDateTime(v).toOffsetTime().toString();
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> Conversions.toBytes(v);
            case Types.NULL -> new SqlNull(Types.NULL);
            case Types.OTHER, Types.JAVA_OBJECT -> v instanceof String s ? new Untyped(s) : v;
            default -> throw SqlExceptions.notSupported("binding to SQL type " + targetSqlType);
        };
    }

    static Object date(java.sql.Date d, Calendar cal) {
        if (d == null) {
            return new SqlNull(Types.DATE);
        }
        // With a calendar, the date is the one the instant falls on in the calendar's zone.
        return cal == null ? d.toLocalDate()
                : Instant.ofEpochMilli(d.getTime()).atZone(cal.getTimeZone().toZoneId()).toLocalDate();
    }

    static Object time(Time t, Calendar cal) {
        if (t == null) {
            return new SqlNull(Types.TIME);
        }
        return DateTimes.localTime(t, cal == null ? ZoneId.systemDefault() : cal.getTimeZone().toZoneId());
    }

    static Object timestamp(Timestamp t, Calendar cal) {
        if (t == null) {
            return new SqlNull(Types.TIMESTAMP);
        }
        return cal == null ? t.toLocalDateTime()
                : LocalDateTime.ofInstant(t.toInstant(), cal.getTimeZone().toZoneId());
    }

    static byte[] blobBytes(Blob b) throws SQLException {
        if (b instanceof MemoryBlob m) {
            return m.toBytes();
        }
        long length = b.length();
        if (length > Integer.MAX_VALUE) {
            throw SqlExceptions.create("blob of " + length + " bytes is too large", SqlExceptions.LIMIT_EXCEEDED);
        }
        return b.getBytes(1, (int) length);
    }

    static String clobString(Clob c) throws SQLException {
        if (c instanceof MemoryClob m) {
            return m.asString();
        }
        long length = c.length();
        if (length > Integer.MAX_VALUE) {
            throw SqlExceptions.create("clob of " + length + " characters is too large", SqlExceptions.LIMIT_EXCEEDED);
        }
        return c.getSubString(1, (int) length);
    }

    /** Reads a stream whole (values travel whole); length -1 reads to the end, else exactly that many bytes. */
    static byte[] readBytes(InputStream in, long length) throws SQLException {
        if (length > Integer.MAX_VALUE) {
            throw SqlExceptions.create("stream of " + length + " bytes is too large", SqlExceptions.LIMIT_EXCEEDED);
        }
        try {
            if (length < 0) {
                return in.readAllBytes();
            }
            byte[] b = in.readNBytes((int) length);
            if (b.length < length) {
                throw SqlExceptions.create("stream ended after " + b.length + " of " + length + " bytes",
                        SqlExceptions.INVALID_ARGUMENT);
            }
            return b;
        } catch (IOException e) {
            throw SqlExceptions.create("reading the parameter stream failed: " + e.getMessage(),
                    SqlExceptions.GENERAL_ERROR, 0, e);
        }
    }

    /** Reads characters whole; length -1 reads to the end, else exactly that many characters. */
    static String readChars(Reader r, long length) throws SQLException {
        if (length > Integer.MAX_VALUE) {
            throw SqlExceptions.create("reader of " + length + " characters is too large",
                    SqlExceptions.LIMIT_EXCEEDED);
        }
        StringBuilder b = new StringBuilder(length < 0 ? 256 : (int) length);
        char[] buf = new char[8192];
        try {
            while (length < 0 || b.length() < length) {
                int want = length < 0 ? buf.length : (int) Math.min(buf.length, length - b.length());
                int n = r.read(buf, 0, want);
                if (n < 0) {
                    break;
                }
                b.append(buf, 0, n);
            }
        } catch (IOException e) {
            throw SqlExceptions.create("reading the parameter reader failed: " + e.getMessage(),
                    SqlExceptions.GENERAL_ERROR, 0, e);
        }
        if (length >= 0 && b.length() < length) {
            throw SqlExceptions.create("reader ended after " + b.length() + " of " + length + " characters",
                    SqlExceptions.INVALID_ARGUMENT);
        }
        return b.toString();
    }
}
