package org.phalanx.recoverylog;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The binary form of a whole {@link LogEntry} (a record payload of the file log):
 *
 * <pre>
 * int64   position
 * int64   transaction id
 * byte    kind: 'S' statement, 'W' write, 'C' commit, 'R' rollback, 'F' failed
 * value   login   (ValueEncoding string or null)
 * value   sql     (ValueEncoding string or null)
 * int32   parameter count, then each parameter as a ValueEncoding value
 * int32   backend count, then each name as a ValueEncoding string
 * value   request id (ValueEncoding string), only when the entry has one (entries written before
 *         request ids existed end before it)
 * </pre>
 */
final class EntryCodec {
    private EntryCodec() {
    }

    static void write(DataOutputStream out, LogEntry e) throws IOException {
        out.writeLong(e.position());
        out.writeLong(e.transactionId());
        out.writeByte(StoredEntry.letter(e.kind()));
        ValueEncoding.writeString(out, e.login());
        ValueEncoding.writeString(out, e.sql());
        ValueEncoding.writeList(out, e.params());
        out.writeInt(e.backends().size());
        for (String backend : e.backends()) {
            ValueEncoding.writeString(out, backend);
        }
        if (e.requestId() != null) {
            ValueEncoding.writeString(out, e.requestId());
        }
    }

    /** A record payload's fields, decoded but not yet checked ({@link EntryReader} does). */
    record Fields(long position, long transactionId, int kindLetter, String login, String sql, List<Object> params,
                  Set<String> backends, String requestId) implements StoredEntry {
    }

    static Fields decode(byte[] payload, int length) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload, 0, length));
        long position = in.readLong();
        long transactionId = in.readLong();
        int kind = in.readUnsignedByte();
        String login = ValueEncoding.readString(in);
        String sql = ValueEncoding.readString(in);
        List<Object> params = ValueEncoding.readList(in);
        int n = in.readInt();
        if (n < 0 || n > length) {
            throw new IOException("bad backend count " + n);
        }
        Set<String> backends = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) {
            backends.add(ValueEncoding.readString(in));
        }
        String requestId = in.available() > 0 ? ValueEncoding.readString(in) : null;
        if (in.available() > 0) {
            throw new IOException(in.available() + " unexpected bytes at the end of the entry");
        }
        return new Fields(position, transactionId, kind, login, sql, params, backends, requestId);
    }
}
