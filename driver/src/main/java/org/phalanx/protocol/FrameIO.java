package org.phalanx.protocol;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Length-framed messages: a 4-byte big-endian length, then that many bytes (the first is the
 * {@link MessageType}). The length is checked against a limit before anything is allocated, and
 * the frame's memory grows as its bytes arrive: a header alone announcing the largest frame costs
 * {@link #FIRST_CHUNK}, not the frame.
 */
public final class FrameIO {
    /** What a frame's first bytes get; it doubles as more arrive. */
    static final int FIRST_CHUNK = 64 * 1024;

    private FrameIO() {
    }

    /** Reads one frame; returns null on a clean end of stream before a frame starts. */
    public static byte[] read(DataInputStream in, int maxFrame) throws IOException {
        return read(in, maxFrame, () -> { });
    }

    /** A hook run once a frame has started to arrive. */
    @FunctionalInterface
    public interface FrameStart {
        void started() throws IOException;
    }

    /**
     * {@link #read(DataInputStream, int)}, running {@code started} once the frame's first byte is
     * in (the controller then bounds how long the rest may take).
     */
    public static byte[] read(DataInputStream in, int maxFrame, FrameStart started) throws IOException {
        int b0 = in.read();
        if (b0 < 0) {
            return null;
        }
        started.started();
        int length = (b0 << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        if (length <= 0) {
            throw new ProtocolException("frame length " + length + " is not positive");
        }
        if (length > maxFrame) {
            throw new ProtocolException("frame of " + length + " bytes exceeds the limit of " + maxFrame);
        }
        byte[] frame = new byte[Math.min(length, FIRST_CHUNK)];
        int got = 0;
        while (got < length) {
            if (got == frame.length) {
                frame = java.util.Arrays.copyOf(frame, (int) Math.min(length, 2L * frame.length));
            }
            int n = in.read(frame, got, frame.length - got);
            if (n < 0) {
                throw new ProtocolException("stream ended inside a frame of " + length + " bytes");
            }
            got += n;
        }
        return frame;
    }

    /** Writes the message as one frame and flushes. */
    public static void write(OutputStream out, MessageWriter message) throws IOException {
        out.write(message.framed(), 0, message.framedLength());
        out.flush();
    }
}
