package org.phalanx.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * METADATA: a DatabaseMetaData method (getTables, getColumns, getPrimaryKeys, getIndexInfo,
 * getImportedKeys, ...) with its arguments as values; String[] arguments travel as one
 * comma-separated STRING. Answered by RESULT_SET with every row (cursor id 0).
 */
public record MetadataRequest(String method, List<Object> args) {

    public MessageWriter toMessage() {
        MessageWriter w = new MessageWriter(MessageType.METADATA);
        w.writeString(method).writeInt(args.size());
        for (Object a : args) {
            w.writeValue(a);
        }
        return w;
    }

    public static MetadataRequest readBody(MessageReader r) throws ProtocolException {
        String method = r.readString();
        if (method == null) {
            throw new ProtocolException("metadata request without a method");
        }
        int n = r.readCount();
        List<Object> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            args.add(r.readValue());
        }
        return new MetadataRequest(method, args);
    }
}
