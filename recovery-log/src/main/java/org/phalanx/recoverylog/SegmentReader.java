package org.phalanx.recoverylog;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * Reads the records of one segment in order, up to a byte limit, checking each record's length
 * and CRC. It reports a damaged record as a {@link Damage} with its offset; whether that is a torn
 * tail or corruption is for the caller to judge.
 */
final class SegmentReader implements AutoCloseable {

    /** What is wrong at {@code offset}. {@code torn} means "looks like a write cut short". */
    record Damage(long offset, boolean torn, boolean lastRecord, String reason) {
    }

    private final Path file;
    private final long limit;
    private final DataInputStream in;
    private final CRC32 crc = new CRC32();
    private byte[] payload = new byte[4096];
    private int payloadLength;
    private long offset;
    private long recordOffset;
    private Damage damage;

    /**
     * @param limit how many bytes of the file to read (the size when the read began)
     */
    SegmentReader(Path file, long limit) throws IOException {
        this.file = file;
        this.limit = limit;
        InputStream raw = Files.newInputStream(file);
        this.in = new DataInputStream(new BufferedInputStream(raw, 1 << 16));
        try {
            readMagic();
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    private void readMagic() throws IOException {
        if (limit < SegmentFormat.MAGIC.length) {
            damage = new Damage(0, true, true, "incomplete segment header (" + limit + " bytes)");
            return;
        }
        byte[] magic = new byte[SegmentFormat.MAGIC.length];
        in.readFully(magic);
        if (!Arrays.equals(magic, SegmentFormat.MAGIC)) {
            throw new LogCorruptedException(file, 0, "not a Phalanx recovery log segment (bad magic)");
        }
        offset = magic.length;
    }

    /**
     * Moves to the next record. False at the clean end, or when a damaged record was met (then
     * {@link #damage()} says what and where).
     */
    boolean next() throws IOException {
        if (damage != null) {
            return false;
        }
        recordOffset = offset;
        long remaining = limit - offset;
        if (remaining == 0) {
            return false;
        }
        if (remaining < SegmentFormat.HEADER) {
            return damaged(true, true, "incomplete record header (" + remaining + " bytes)");
        }
        int n = in.readInt();
        int check = in.readInt();
        int expectedCrc = in.readInt();
        offset += SegmentFormat.HEADER;
        if (check != ~n) {
            return damaged(false, false, "record length field is damaged (" + n + " / " + ~check + ")");
        }
        if (n < SegmentFormat.MIN_PAYLOAD || n > SegmentFormat.MAX_PAYLOAD) {
            return damaged(false, false, "impossible record length " + n);
        }
        if (offset + n > limit) {
            return damaged(true, true, "record of " + n + " bytes extends past the end of the file");
        }
        if (payload.length < n) {
            payload = new byte[Math.max(n, payload.length * 2)];
        }
        try {
            in.readFully(payload, 0, n);
        } catch (EOFException e) {
            return damaged(true, true, "file ended inside a record");
        }
        offset += n;
        crc.reset();
        crc.update(payload, 0, n);
        if ((int) crc.getValue() != expectedCrc) {
            return damaged(false, offset == limit, "CRC mismatch");
        }
        payloadLength = n;
        return true;
    }

    private boolean damaged(boolean torn, boolean lastRecord, String reason) {
        damage = new Damage(recordOffset, torn, lastRecord, reason);
        return false;
    }

    /** The position of the current record (its first eight payload bytes), without decoding the rest. */
    long position() {
        long p = 0;
        for (int i = 0; i < 8; i++) {
            p = (p << 8) | (payload[i] & 0xff);
        }
        return p;
    }

    /** The current record's fields. */
    EntryCodec.Fields fields() {
        try {
            return EntryCodec.decode(payload, payloadLength);
        } catch (IOException e) {
            throw undecodable(e);
        }
    }

    /** The current record passed its CRC, yet does not hold an entry. */
    LogCorruptedException undecodable(IOException reason) {
        return new LogCorruptedException(file, recordOffset, "record passes its CRC but cannot be decoded: "
                + reason.getMessage());
    }

    long recordOffset() {
        return recordOffset;
    }

    /** The offset after the last good record. */
    long goodEnd() {
        return damage != null ? damage.offset() : offset;
    }

    Damage damage() {
        return damage;
    }

    Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
