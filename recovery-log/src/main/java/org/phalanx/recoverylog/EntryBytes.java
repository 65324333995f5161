package org.phalanx.recoverylog;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A {@link LogEntry} as bytes, in the file log's record format ({@link EntryCodec}), for sending
 * entries to other controllers (a distributed virtual database's replicated log).
 */
public final class EntryBytes {
    private EntryBytes() {
    }

    public static byte[] encode(LogEntry entry) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            EntryCodec.write(out, entry);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    /** @throws IOException when the bytes are not an entry this version writes */
    public static LogEntry decode(byte[] bytes) throws IOException {
        return EntryReader.entry(EntryCodec.decode(bytes, bytes.length));
    }
}
