package org.phalanx.protocol;

import java.nio.charset.StandardCharsets;

/** Reads one message; every read is bounds-checked and a short message is a {@link ProtocolException}. */
public final class MessageReader {
    private final byte[] buf;
    private int pos;

    /** @param frame a frame as returned by {@link FrameIO#read}; its first byte is the type */
    public MessageReader(byte[] frame) {
        this.buf = frame;
        this.pos = 1;
    }

    public byte type() {
        return buf[0];
    }

    private void need(int n) throws ProtocolException {
        if (n < 0 || n > buf.length - pos) { // not pos + n: a length near 2^31 from the wire would overflow it
            throw new ProtocolException("message of type 0x" + Integer.toHexString(buf[0] & 0xFF)
                    + " is truncated at byte " + pos);
        }
    }

    public int readByte() throws ProtocolException {
        need(1);
        return buf[pos++];
    }

    public boolean readBoolean() throws ProtocolException {
        int b = readByte();
        if (b != 0 && b != 1) {
            throw new ProtocolException("invalid boolean " + b);
        }
        return b == 1;
    }

    public short readShort() throws ProtocolException {
        need(2);
        short v = (short) (((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF));
        pos += 2;
        return v;
    }

    public int readInt() throws ProtocolException {
        need(4);
        int v = ((buf[pos] & 0xFF) << 24) | ((buf[pos + 1] & 0xFF) << 16) | ((buf[pos + 2] & 0xFF) << 8) | (buf[pos + 3] & 0xFF);
        pos += 4;
        return v;
    }

    public long readLong() throws ProtocolException {
        return ((long) readInt() << 32) | (readInt() & 0xFFFFFFFFL);
    }

    public float readFloat() throws ProtocolException {
        return Float.intBitsToFloat(readInt());
    }

    public double readDouble() throws ProtocolException {
        return Double.longBitsToDouble(readLong());
    }

    public byte[] readBytes() throws ProtocolException {
        int n = readInt();
        if (n == -1) {
            return null;
        }
        need(n);
        byte[] v = new byte[n];
        System.arraycopy(buf, pos, v, 0, n);
        pos += n;
        return v;
    }

    public String readString() throws ProtocolException {
        int n = readInt();
        if (n == -1) {
            return null;
        }
        need(n);
        String v = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return v;
    }

    /** A count that must be non-negative and plausible for what remains of the message. */
    public int readCount() throws ProtocolException {
        int n = readInt();
        if (n < 0 || n > buf.length - pos) {
            throw new ProtocolException("invalid count " + n);
        }
        return n;
    }

    public Object readValue() throws ProtocolException {
        return ValueCodec.read(this);
    }

    /** Fails if bytes are left over: a message must be exactly as long as its fields. */
    public void end() throws ProtocolException {
        if (pos != buf.length) {
            throw new ProtocolException((buf.length - pos) + " unexpected bytes after message of type 0x"
                    + Integer.toHexString(buf[0] & 0xFF));
        }
    }
}
