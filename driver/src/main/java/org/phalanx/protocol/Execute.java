package org.phalanx.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * EXECUTE: one statement with its parameters. Answered by RESULT_SET or UPDATE_COUNT (or ERROR).
 *
 * @param mode         {@link #QUERY} (must return rows), {@link #UPDATE} (must not), {@link #ANY}
 * @param keys         generated keys wanted: {@link #NO_KEYS}, {@link #AUTO_KEYS} or {@link #NAMED_KEYS}
 * @param keyColumns   column names for NAMED_KEYS, else empty
 * @param fetchSize    rows per batch (0: server default)
 * @param scrollable   the client will scroll: the server sends every row at once
 */
public record Execute(byte mode, String sql, List<Object> params, byte keys, List<String> keyColumns,
                      int maxRows, int fetchSize, int queryTimeoutSeconds, boolean scrollable) {
    public static final byte QUERY = 1;
    public static final byte UPDATE = 2;
    public static final byte ANY = 3;

    public static final byte NO_KEYS = 0;
    public static final byte AUTO_KEYS = 1;
    public static final byte NAMED_KEYS = 2;

    public MessageWriter toMessage() {
        MessageWriter w = new MessageWriter(MessageType.EXECUTE, 64 + sql.length() * 2);
        w.writeByte(mode).writeString(sql);
        w.writeInt(params.size());
        for (Object p : params) {
            w.writeValue(p);
        }
        w.writeByte(keys);
        w.writeInt(keyColumns.size());
        for (String c : keyColumns) {
            w.writeString(c);
        }
        w.writeInt(maxRows).writeInt(fetchSize).writeInt(queryTimeoutSeconds).writeBoolean(scrollable);
        return w;
    }

    public static Execute readBody(MessageReader r) throws ProtocolException {
        byte mode = (byte) r.readByte();
        if (mode < QUERY || mode > ANY) {
            throw new ProtocolException("invalid execute mode " + mode);
        }
        String sql = r.readString();
        if (sql == null) {
            throw new ProtocolException("execute without SQL");
        }
        int n = r.readCount();
        List<Object> params = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            params.add(r.readValue());
        }
        byte keys = (byte) r.readByte();
        if (keys < NO_KEYS || keys > NAMED_KEYS) {
            throw new ProtocolException("invalid generated keys mode " + keys);
        }
        int k = r.readCount();
        List<String> keyColumns = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            keyColumns.add(r.readString());
        }
        return new Execute(mode, sql, params, keys, keyColumns, r.readInt(), r.readInt(), r.readInt(), r.readBoolean());
    }
}
