package org.phalanx.recoverylog;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32;

/**
 * Layout of a file log segment.
 *
 * <pre>
 * segment := magic record*
 * magic   := "PHXRLOG" 0x01                      (8 bytes)
 * record  := int32 n, int32 ~n, int32 crc32(payload), payload (n bytes, see EntryCodec)
 * </pre>
 *
 * All integers are big-endian. The complemented length tells a damaged length field apart from
 * a record cut short by a crash; the CRC covers the payload.
 */
final class SegmentFormat {
    static final byte[] MAGIC = "PHXRLOG\u0001".getBytes(StandardCharsets.ISO_8859_1);
    static final int HEADER = 12;
    /** The smallest valid payload: position, transaction, kind, two null strings, two zero counts. */
    static final int MIN_PAYLOAD = 8 + 8 + 1 + 1 + 1 + 4 + 4;
    static final int MAX_PAYLOAD = 1 << 30;
    static final String PREFIX = "segment-";
    static final String SUFFIX = ".rlog";

    private SegmentFormat() {
    }

    static String fileName(long sequence) {
        return String.format("%s%012d%s", PREFIX, sequence, SUFFIX);
    }

    /** The sequence number in a segment file name, or -1 if it is not a segment. */
    static long sequence(Path file) {
        String name = file.getFileName().toString();
        if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Encodes records into one reusable buffer. */
    static final class RecordEncoder {
        private final ByteArrayOutputStream payload = new ByteArrayOutputStream(256);
        private final DataOutputStream out = new DataOutputStream(payload);
        private final CRC32 crc = new CRC32();

        /** Appends the whole record (header and payload) for {@code entry} to {@code target}; returns its size. */
        int encode(LogEntry entry, ByteArrayOutputStream target) throws IOException {
            payload.reset();
            EntryCodec.write(out, entry);
            out.flush();
            int n = payload.size();
            if (n > MAX_PAYLOAD) {
                throw new IOException("log entry at position " + entry.position() + " is " + n
                        + " bytes, more than the " + MAX_PAYLOAD + " a record can hold");
            }
            crc.reset();
            byte[] bytes = payload.toByteArray();
            crc.update(bytes, 0, n);
            writeInt(target, n);
            writeInt(target, ~n);
            writeInt(target, (int) crc.getValue());
            target.write(bytes, 0, n);
            return HEADER + n;
        }

        private static void writeInt(ByteArrayOutputStream target, int v) {
            target.write(v >>> 24);
            target.write(v >>> 16);
            target.write(v >>> 8);
            target.write(v);
        }
    }
}
