package org.phalanx.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds one message. Space for the frame length is reserved up front so the frame is written
 * with a single call and no copy.
 */
public final class MessageWriter {
    private byte[] buf;
    private int pos;

    public MessageWriter(byte type) {
        this(type, 256);
    }

    public MessageWriter(byte type, int capacity) {
        buf = new byte[Math.max(16, capacity)];
        pos = 4;
        writeByte(type);
    }

    private void ensure(int n) {
        if (pos + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
        }
    }

    public MessageWriter writeByte(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
        return this;
    }

    public MessageWriter writeBoolean(boolean v) {
        return writeByte(v ? 1 : 0);
    }

    public MessageWriter writeShort(int v) {
        ensure(2);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    public MessageWriter writeInt(int v) {
        ensure(4);
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    public MessageWriter writeLong(long v) {
        writeInt((int) (v >>> 32));
        return writeInt((int) v);
    }

    public MessageWriter writeFloat(float v) {
        return writeInt(Float.floatToIntBits(v));
    }

    public MessageWriter writeDouble(double v) {
        return writeLong(Double.doubleToLongBits(v));
    }

    /** Length-prefixed bytes; length -1 means null. */
    public MessageWriter writeBytes(byte[] v) {
        if (v == null) {
            return writeInt(-1);
        }
        writeInt(v.length);
        ensure(v.length);
        System.arraycopy(v, 0, buf, pos, v.length);
        pos += v.length;
        return this;
    }

    /** UTF-8, length-prefixed; null allowed. */
    public MessageWriter writeString(String v) {
        return writeBytes(v == null ? null : v.getBytes(StandardCharsets.UTF_8));
    }

    public MessageWriter writeValue(Object v) {
        ValueCodec.write(this, v);
        return this;
    }

    /** Payload size (type byte included), i.e. what the frame length will say. */
    public int payloadLength() {
        return pos - 4;
    }

    byte[] framed() {
        int length = pos - 4;
        buf[0] = (byte) (length >>> 24);
        buf[1] = (byte) (length >>> 16);
        buf[2] = (byte) (length >>> 8);
        buf[3] = (byte) length;
        return buf;
    }

    int framedLength() {
        return pos;
    }
}
