package org.phalanx.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * RESULT_SET reply (also embedded in UPDATE_COUNT for generated keys): an open cursor id
 * (0 when the first batch is the whole result), the columns, and the first batch of rows.
 * Further batches come with FETCH on the cursor id.
 */
public record ResultSetReply(int cursorId, List<ColumnInfo> columns, RowBatch firstBatch) {

    public void writeBody(MessageWriter w) {
        w.writeInt(cursorId);
        w.writeInt(columns.size());
        for (ColumnInfo c : columns) {
            c.write(w);
        }
        firstBatch.write(w);
    }

    public MessageWriter toMessage() {
        MessageWriter w = new MessageWriter(MessageType.RESULT_SET, 1024);
        writeBody(w);
        return w;
    }

    public static ResultSetReply readBody(MessageReader r) throws ProtocolException {
        int cursorId = r.readInt();
        int n = r.readCount();
        List<ColumnInfo> columns = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            columns.add(ColumnInfo.read(r));
        }
        return new ResultSetReply(cursorId, columns, RowBatch.read(r, n));
    }
}
