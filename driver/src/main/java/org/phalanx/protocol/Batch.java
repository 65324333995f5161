package org.phalanx.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * BATCH: either one SQL text with several parameter sets (PreparedStatement.executeBatch), or
 * several SQL texts without parameters (Statement.executeBatch; {@code sql} is null).
 * Answered by BATCH_RESULT.
 *
 * @param keys       generated keys wanted, as {@link Execute#keys()} (a prepared batch only)
 * @param keyColumns column names for {@link Execute#NAMED_KEYS}, else empty
 */
public record Batch(String sql, List<String> statements, List<List<Object>> parameterSets, int queryTimeoutSeconds,
                    byte keys, List<String> keyColumns) {

    /** A batch that wants no generated keys. */
    public Batch(String sql, List<String> statements, List<List<Object>> parameterSets, int queryTimeoutSeconds) {
        this(sql, statements, parameterSets, queryTimeoutSeconds, Execute.NO_KEYS, List.of());
    }

    public MessageWriter toMessage() {
        MessageWriter w = new MessageWriter(MessageType.BATCH, 1024);
        w.writeString(sql);
        w.writeInt(statements.size());
        for (String s : statements) {
            w.writeString(s);
        }
        w.writeInt(parameterSets.size());
        for (List<Object> set : parameterSets) {
            w.writeInt(set.size());
            for (Object p : set) {
                w.writeValue(p);
            }
        }
        w.writeInt(queryTimeoutSeconds);
        w.writeByte(keys);
        w.writeInt(keyColumns.size());
        for (String c : keyColumns) {
            w.writeString(c);
        }
        return w;
    }

    public static Batch readBody(MessageReader r) throws ProtocolException {
        String sql = r.readString();
        int n = r.readCount();
        List<String> statements = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String s = r.readString();
            if (s == null) {
                throw new ProtocolException("null statement in batch");
            }
            statements.add(s);
        }
        int sets = r.readCount();
        List<List<Object>> parameterSets = new ArrayList<>(sets);
        for (int i = 0; i < sets; i++) {
            int m = r.readCount();
            List<Object> set = new ArrayList<>(m);
            for (int j = 0; j < m; j++) {
                set.add(r.readValue());
            }
            parameterSets.add(set);
        }
        if (sql == null ? !parameterSets.isEmpty() : !statements.isEmpty()) {
            throw new ProtocolException("batch mixes statement texts and parameter sets");
        }
        int timeout = r.readInt();
        byte keys = (byte) r.readByte();
        int k = r.readCount();
        List<String> keyColumns = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            keyColumns.add(r.readString());
        }
        if (keys != Execute.NO_KEYS && sql == null) {
            throw new ProtocolException("generated keys asked of a statement batch");
        }
        return new Batch(sql, statements, parameterSets, timeout, keys, keyColumns);
    }
}
