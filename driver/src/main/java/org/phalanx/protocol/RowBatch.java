package org.phalanx.protocol;

import java.util.ArrayList;
import java.util.List;

/** A batch of rows: a count, the values row by row, and whether the result ends here. */
public record RowBatch(List<Object[]> rows, boolean last) {

    public void write(MessageWriter w) {
        w.writeInt(rows.size());
        for (Object[] row : rows) {
            for (Object v : row) {
                w.writeValue(v);
            }
        }
        w.writeBoolean(last);
    }

    public static RowBatch read(MessageReader r, int columnCount) throws ProtocolException {
        int n = r.readCount();
        List<Object[]> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Object[] row = new Object[columnCount];
            for (int c = 0; c < columnCount; c++) {
                row[c] = r.readValue();
            }
            rows.add(row);
        }
        return new RowBatch(rows, r.readBoolean());
    }
}
