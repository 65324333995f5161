package org.phalanx.protocol;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Length-framed messages: a 4-byte big-endian length, then that many bytes (the first is the
 * {@link MessageType}). The length is checked against a limit before anything is allocated.
 */
public final class FrameIO {
    private FrameIO() {
    }

    /** Reads one frame; returns null on a clean end of stream before a frame starts. */
    public static byte[] read(DataInputStream in, int maxFrame) throws IOException {
        int b0 = in.read();
        if (b0 < 0) {
            return null;
        }
        int length = (b0 << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        if (length <= 0) {
            throw new ProtocolException("frame length " + length + " is not positive");
        }
        if (length > maxFrame) {
            throw new ProtocolException("frame of " + length + " bytes exceeds the limit of " + maxFrame);
        }
        byte[] frame = new byte[length];
        try {
            in.readFully(frame);
        } catch (EOFException e) {
            throw new ProtocolException("stream ended inside a frame of " + length + " bytes");
        }
        return frame;
    }

    /** Writes the message as one frame and flushes. */
    public static void write(OutputStream out, MessageWriter message) throws IOException {
        out.write(message.framed(), 0, message.framedLength());
        out.flush();
    }
}
