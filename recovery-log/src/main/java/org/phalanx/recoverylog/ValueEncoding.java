package org.phalanx.recoverylog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.phalanx.engine.UntypedText;

/**
 * The binary form of a bound parameter value: one tag byte naming the Java type, then the value
 * in a fixed layout (big-endian). Every supported value reads back equal to what was written —
 * floats keep their exact bits (NaN payloads, -0.0), decimals their scale, strings every char
 * (strings that are not well-formed UTF-16 use a UTF-16 form instead of UTF-8).
 *
 * <pre>
 * tag  type            layout after the tag
 *  0   null            -
 *  1   LogNull         int32 sqlType
 *  2   Boolean         byte 0|1
 *  3   Byte            byte
 *  4   Short           int16
 *  5   Integer         int32
 *  6   Long            int64
 *  7   Float           int32 raw IEEE bits
 *  8   Double          int64 raw IEEE bits
 *  9   BigDecimal      int32 scale, int32 n, n bytes unscaled two's complement
 * 10   String          int32 n, n bytes UTF-8
 * 11   String (UTF-16) int32 n chars, 2n bytes (only for strings with unpaired surrogates)
 * 12   byte[]          int32 n, n bytes
 * 13   LocalDate       int64 epoch day
 * 14   LocalTime       int64 nano of day
 * 15   LocalDateTime   int64 epoch day, int64 nano of day
 * 16   OffsetDateTime  int64 epoch day, int64 nano of day, int32 offset seconds
 * 17   UntypedText     then a String (tag 10 or 11)
 * </pre>
 */
public final class ValueEncoding {
    static final int NULL = 0;
    static final int LOG_NULL = 1;
    static final int BOOLEAN = 2;
    static final int BYTE = 3;
    static final int SHORT = 4;
    static final int INTEGER = 5;
    static final int LONG = 6;
    static final int FLOAT = 7;
    static final int DOUBLE = 8;
    static final int DECIMAL = 9;
    static final int STRING_UTF8 = 10;
    static final int STRING_UTF16 = 11;
    static final int BYTES = 12;
    static final int DATE = 13;
    static final int TIME = 14;
    static final int DATE_TIME = 15;
    static final int OFFSET_DATE_TIME = 16;
    static final int UNTYPED_TEXT = 17;

    private ValueEncoding() {
    }

    /** Whether {@code value} is one of the supported types. */
    public static boolean isSupported(Object value) {
        return value == null || value instanceof LogNull || value instanceof Boolean || value instanceof Byte
                || value instanceof Short || value instanceof Integer || value instanceof Long
                || value instanceof Float || value instanceof Double || value instanceof BigDecimal
                || value instanceof String || value instanceof byte[] || value instanceof LocalDate
                || value instanceof LocalTime || value instanceof LocalDateTime || value instanceof OffsetDateTime
                || value instanceof UntypedText;
    }

    static void checkSupported(Object value, int index) {
        if (!isSupported(value)) {
            throw new IllegalArgumentException("parameter " + index + " has type " + value.getClass().getName()
                    + ", which the recovery log cannot store (convert it to one of: Boolean, Byte, Short, Integer,"
                    + " Long, Float, Double, BigDecimal, String, byte[], LocalDate, LocalTime, LocalDateTime,"
                    + " OffsetDateTime, UntypedText, LogNull)");
        }
    }

    public static void write(DataOutput out, Object value) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof LogNull n) {
            out.writeByte(LOG_NULL);
            out.writeInt(n.sqlType());
        } else if (value instanceof Boolean v) {
            out.writeByte(BOOLEAN);
            out.writeByte(v ? 1 : 0);
        } else if (value instanceof Byte v) {
            out.writeByte(BYTE);
            out.writeByte(v);
        } else if (value instanceof Short v) {
            out.writeByte(SHORT);
            out.writeShort(v);
        } else if (value instanceof Integer v) {
            out.writeByte(INTEGER);
            out.writeInt(v);
        } else if (value instanceof Long v) {
            out.writeByte(LONG);
            out.writeLong(v);
        } else if (value instanceof Float v) {
            out.writeByte(FLOAT);
            out.writeInt(Float.floatToRawIntBits(v));
        } else if (value instanceof Double v) {
            out.writeByte(DOUBLE);
            out.writeLong(Double.doubleToRawLongBits(v));
        } else if (value instanceof BigDecimal v) {
            out.writeByte(DECIMAL);
            out.writeInt(v.scale());
            writeBytes(out, v.unscaledValue().toByteArray());
        } else if (value instanceof String v) {
            writeString(out, v);
        } else if (value instanceof UntypedText v) {
            out.writeByte(UNTYPED_TEXT);
            writeString(out, v.text());
        } else if (value instanceof byte[] v) {
            out.writeByte(BYTES);
            writeBytes(out, v);
        } else if (value instanceof LocalDate v) {
            out.writeByte(DATE);
            out.writeLong(v.toEpochDay());
        } else if (value instanceof LocalTime v) {
            out.writeByte(TIME);
            out.writeLong(v.toNanoOfDay());
        } else if (value instanceof LocalDateTime v) {
            out.writeByte(DATE_TIME);
            out.writeLong(v.toLocalDate().toEpochDay());
            out.writeLong(v.toLocalTime().toNanoOfDay());
        } else if (value instanceof OffsetDateTime v) {
            out.writeByte(OFFSET_DATE_TIME);
            out.writeLong(v.toLocalDate().toEpochDay());
            out.writeLong(v.toLocalTime().toNanoOfDay());
            out.writeInt(v.getOffset().getTotalSeconds());
        } else {
            checkSupported(value, 0);
        }
    }

    public static Object read(DataInput in) throws IOException {
        int tag = in.readUnsignedByte();
        return switch (tag) {
            case NULL -> null;
            case LOG_NULL -> new LogNull(in.readInt());
            case BOOLEAN -> in.readByte() != 0;
            case BYTE -> in.readByte();
            case SHORT -> in.readShort();
            case INTEGER -> in.readInt();
            case LONG -> in.readLong();
            case FLOAT -> Float.intBitsToFloat(in.readInt());
            case DOUBLE -> Double.longBitsToDouble(in.readLong());
            case DECIMAL -> {
                int scale = in.readInt();
                yield new BigDecimal(new BigInteger(readBytes(in)), scale);
            }
            case STRING_UTF8 -> new String(readBytes(in), StandardCharsets.UTF_8);
            case STRING_UTF16 -> {
                int n = readLength(in);
                char[] chars = new char[n];
                for (int i = 0; i < n; i++) {
                    chars[i] = in.readChar();
                }
                yield new String(chars);
            }
            case BYTES -> readBytes(in);
            case DATE -> LocalDate.ofEpochDay(in.readLong());
            case TIME -> LocalTime.ofNanoOfDay(in.readLong());
            case DATE_TIME -> LocalDateTime.of(LocalDate.ofEpochDay(in.readLong()), LocalTime.ofNanoOfDay(in.readLong()));
            case OFFSET_DATE_TIME -> OffsetDateTime.of(LocalDate.ofEpochDay(in.readLong()),
                    LocalTime.ofNanoOfDay(in.readLong()), ZoneOffset.ofTotalSeconds(in.readInt()));
            case UNTYPED_TEXT -> new UntypedText(readString(in));
            default -> throw new IOException("unknown value tag " + tag);
        };
    }

    /** Writes a String or null (tag 0 / 10 / 11). */
    static void writeString(DataOutput out, String value) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
        } else if (isWellFormed(value)) {
            out.writeByte(STRING_UTF8);
            writeBytes(out, value.getBytes(StandardCharsets.UTF_8));
        } else {
            out.writeByte(STRING_UTF16);
            out.writeInt(value.length());
            out.writeChars(value);
        }
    }

    /** Reads what {@link #writeString} wrote. */
    static String readString(DataInput in) throws IOException {
        Object value = read(in);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw new IOException("expected a string, found " + value.getClass().getSimpleName());
    }

    /** Encodes a parameter list: int32 count, then each value. */
    public static byte[] encodeList(List<Object> values) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + 16 * values.size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeList(out, values);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in-memory: cannot happen
        }
        return bytes.toByteArray();
    }

    public static List<Object> decodeList(byte[] encoded) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
        List<Object> values = readList(in);
        if (in.available() > 0) {
            throw new IOException(in.available() + " unexpected bytes after the parameter list");
        }
        return values;
    }

    static void writeList(DataOutput out, List<Object> values) throws IOException {
        out.writeInt(values.size());
        for (Object value : values) {
            write(out, value);
        }
    }

    static List<Object> readList(DataInput in) throws IOException {
        int n = readLength(in);
        if (n == 0) {
            return List.of();
        }
        List<Object> values = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            values.add(read(in));
        }
        return Collections.unmodifiableList(values);
    }

    private static void writeBytes(DataOutput out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInput in) throws IOException {
        byte[] bytes = new byte[readLength(in)];
        in.readFully(bytes);
        return bytes;
    }

    private static int readLength(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("negative length " + n);
        }
        if (in instanceof DataInputStream s && n > 4096 && s.available() < n) {
            // a damaged length must not make us allocate gigabytes before noticing
            throw new EOFException("length " + n + " exceeds the " + s.available() + " bytes left");
        }
        return n;
    }

    private static boolean isWellFormed(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == n || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
