package org.phalanx.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FrameIOTest {
    /** Hands out at most 777 bytes per read, as a slow network would. */
    private static InputStream trickling(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 777));
            }
        };
    }

    private static byte[] framed(byte[] body) {
        byte[] out = new byte[body.length + 4];
        out[0] = (byte) (body.length >>> 24);
        out[1] = (byte) (body.length >>> 16);
        out[2] = (byte) (body.length >>> 8);
        out[3] = (byte) body.length;
        System.arraycopy(body, 0, out, 4, body.length);
        return out;
    }

    @Test
    void aFrameLargerThanTheFirstChunkArrivesWholeInPieces() throws Exception {
        byte[] body = new byte[5 * FrameIO.FIRST_CHUNK + 123];
        new Random(1).nextBytes(body);
        int[] started = new int[1];
        byte[] read = FrameIO.read(new DataInputStream(trickling(framed(body))), body.length, () -> started[0]++);
        assertArrayEquals(body, read);
        assertTrue(started[0] == 1, "the start hook runs once");
    }

    @Test
    void aHeaderWithoutItsBytesFailsWithoutTheFrameBeingAllocated() {
        byte[] header = {0x7f, 0, 0, 0, 1, 2, 3}; // announces ~2 GiB, then ends
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> FrameIO.read(new DataInputStream(trickling(header)), Integer.MAX_VALUE));
        assertTrue(e.getMessage().contains("stream ended inside a frame"), e.getMessage());
    }
}
