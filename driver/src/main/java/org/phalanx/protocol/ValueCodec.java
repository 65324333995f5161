package org.phalanx.protocol;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Tagged encoding of every value type. Date and time values travel as wall-clock values
 * (java.time), so client and controller need not share a time zone.
 *
 * <p>Decoded Java types: {@link SqlNull}, Boolean, Byte, Short, Integer, Long, Float, Double,
 * BigDecimal, String, byte[], LocalDate, LocalTime, LocalDateTime, OffsetDateTime, {@link Untyped}.
 */
public final class ValueCodec {
    public static final byte NULL = 0;
    public static final byte BOOLEAN = 1;
    public static final byte BYTE = 2;
    public static final byte SHORT = 3;
    public static final byte INT = 4;
    public static final byte LONG = 5;
    public static final byte FLOAT = 6;
    public static final byte DOUBLE = 7;
    public static final byte DECIMAL = 8;
    public static final byte STRING = 9;
    public static final byte BYTES = 10;
    public static final byte DATE = 11;
    public static final byte TIME = 12;
    public static final byte TIMESTAMP = 13;
    public static final byte TIMESTAMP_TZ = 14;
    /** {@link Untyped} text, from protocol version {@link Protocol#UNTYPED_VERSION}. */
    public static final byte UNTYPED = 15;

    private ValueCodec() {
    }

    /**
     * Writes a value. Accepts the decoded types above plus the java.sql date/time classes,
     * java.util.Date, BigInteger and Character, converted to their wire form; anything else is
     * an IllegalArgumentException (callers convert first).
     */
    public static void write(MessageWriter w, Object v) {
        if (v == null) {
            w.writeByte(NULL).writeInt(java.sql.Types.NULL);
        } else if (v instanceof SqlNull n) {
            w.writeByte(NULL).writeInt(n.sqlType());
        } else if (v instanceof String s) {
            w.writeByte(STRING).writeString(s);
        } else if (v instanceof Integer i) {
            w.writeByte(INT).writeInt(i);
        } else if (v instanceof Long l) {
            w.writeByte(LONG).writeLong(l);
        } else if (v instanceof Double d) {
            w.writeByte(DOUBLE).writeDouble(d);
        } else if (v instanceof Boolean b) {
            w.writeByte(BOOLEAN).writeBoolean(b);
        } else if (v instanceof BigDecimal d) {
            w.writeByte(DECIMAL).writeInt(d.scale()).writeBytes(d.unscaledValue().toByteArray());
        } else if (v instanceof byte[] b) {
            w.writeByte(BYTES).writeBytes(b);
        } else if (v instanceof Short s) {
            w.writeByte(SHORT).writeShort(s);
        } else if (v instanceof Byte b) {
            w.writeByte(BYTE).writeByte(b);
        } else if (v instanceof Float f) {
            w.writeByte(FLOAT).writeFloat(f);
        } else if (v instanceof BigInteger b) {
            write(w, new BigDecimal(b));
        } else if (v instanceof Character c) {
            write(w, c.toString());
        } else if (v instanceof LocalDate d) {
            w.writeByte(DATE).writeLong(d.toEpochDay());
        } else if (v instanceof LocalTime t) {
            w.writeByte(TIME).writeLong(t.toNanoOfDay());
        } else if (v instanceof LocalDateTime t) {
            w.writeByte(TIMESTAMP).writeLong(t.toEpochSecond(ZoneOffset.UTC)).writeInt(t.getNano());
        } else if (v instanceof OffsetDateTime t) {
            w.writeByte(TIMESTAMP_TZ).writeLong(t.toEpochSecond()).writeInt(t.getNano())
                    .writeInt(t.getOffset().getTotalSeconds());
        } else if (v instanceof java.sql.Date d) {
            write(w, d.toLocalDate());
        } else if (v instanceof java.sql.Time t) {
            write(w, t.toLocalTime());
        } else if (v instanceof java.sql.Timestamp t) {
            write(w, t.toLocalDateTime());
        } else if (v instanceof java.util.Date d) {
            write(w, new java.sql.Timestamp(d.getTime()).toLocalDateTime());
        } else if (v instanceof Instant i) {
            write(w, OffsetDateTime.ofInstant(i, ZoneOffset.UTC));
        } else if (v instanceof Untyped u) {
            w.writeByte(UNTYPED).writeString(u.text());
        } else {
            throw new IllegalArgumentException("no wire encoding for " + v.getClass().getName());
        }
    }

    public static Object read(MessageReader r) throws ProtocolException {
        int tag = r.readByte();
        switch (tag) {
            case NULL:
                return new SqlNull(r.readInt());
            case BOOLEAN:
                return r.readBoolean();
            case BYTE:
                return (byte) r.readByte();
            case SHORT:
                return r.readShort();
            case INT:
                return r.readInt();
            case LONG:
                return r.readLong();
            case FLOAT:
                return r.readFloat();
            case DOUBLE:
                return r.readDouble();
            case DECIMAL: {
                int scale = r.readInt();
                byte[] unscaled = r.readBytes();
                if (unscaled == null || unscaled.length == 0) {
                    throw new ProtocolException("decimal without digits");
                }
                return new BigDecimal(new BigInteger(unscaled), scale);
            }
            case STRING: {
                String s = r.readString();
                if (s == null) {
                    throw new ProtocolException("null string value (use NULL)");
                }
                return s;
            }
            case UNTYPED: {
                String s = r.readString();
                if (s == null) {
                    throw new ProtocolException("null untyped value (use NULL)");
                }
                return new Untyped(s);
            }
            case BYTES: {
                byte[] b = r.readBytes();
                if (b == null) {
                    throw new ProtocolException("null bytes value (use NULL)");
                }
                return b;
            }
            case DATE:
                try {
                    return LocalDate.ofEpochDay(r.readLong());
                } catch (java.time.DateTimeException e) {
                    throw new ProtocolException("invalid date: " + e.getMessage());
                }
            case TIME:
                try {
                    return LocalTime.ofNanoOfDay(r.readLong());
                } catch (java.time.DateTimeException e) {
                    throw new ProtocolException("invalid time: " + e.getMessage());
                }
            case TIMESTAMP:
                try {
                    return LocalDateTime.ofEpochSecond(r.readLong(), r.readInt(), ZoneOffset.UTC);
                } catch (java.time.DateTimeException e) {
                    throw new ProtocolException("invalid timestamp: " + e.getMessage());
                }
            case TIMESTAMP_TZ:
                try {
                    long seconds = r.readLong();
                    int nanos = r.readInt();
                    ZoneOffset offset = ZoneOffset.ofTotalSeconds(r.readInt());
                    return OffsetDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), offset);
                } catch (java.time.DateTimeException | ArithmeticException e) {
                    // Instant.ofEpochSecond overflows with ArithmeticException, not DateTimeException
                    throw new ProtocolException("invalid timestamp with time zone: " + e.getMessage());
                }
            default:
                throw new ProtocolException("unknown value tag " + tag);
        }
    }
}
