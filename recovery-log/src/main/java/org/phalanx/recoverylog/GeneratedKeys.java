package org.phalanx.recoverylog;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The generated keys an applied auto-commit statement returned, as a group's member remembers them
 * to answer a driver that lost its controller with the keys its first execution produced
 * (docs/distribution.md, exactly-once retries). Only values {@link ValueEncoding} knows are kept.
 *
 * @param columns each column's label, JDBC type and type name
 * @param rows    the key rows, each value of a type {@link ValueEncoding} knows
 */
public record GeneratedKeys(List<Column> columns, List<List<Object>> rows) {

    /** One key column as the backend's driver described it. */
    public record Column(String label, int jdbcType, String typeName) {
    }

    public GeneratedKeys {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** Whether every value can be written ({@link #write}). */
    public boolean encodable() {
        return rows.stream().allMatch(r -> r.size() == columns.size() && r.stream().allMatch(ValueEncoding::isSupported));
    }

    /** int32 column count, each (label, int32 type, type name); int32 row count, each row's values. */
    public void write(DataOutput out) throws IOException {
        out.writeInt(columns.size());
        for (Column c : columns) {
            ValueEncoding.writeString(out, c.label());
            out.writeInt(c.jdbcType());
            ValueEncoding.writeString(out, c.typeName());
        }
        out.writeInt(rows.size());
        for (List<Object> row : rows) {
            for (Object v : row) {
                ValueEncoding.write(out, v);
            }
        }
    }

    /** What {@link #write} wrote; at most {@code maxRows} rows (a longer record is corrupt). */
    public static GeneratedKeys read(DataInput in, int maxRows) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 1000) {
            throw new IOException("bad key column count " + n);
        }
        List<Column> columns = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            columns.add(new Column(ValueEncoding.readString(in), in.readInt(), ValueEncoding.readString(in)));
        }
        int m = in.readInt();
        if (m < 0 || m > maxRows) {
            throw new IOException("bad key row count " + m);
        }
        List<List<Object>> rows = new ArrayList<>(m);
        for (int r = 0; r < m; r++) {
            List<Object> row = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                row.add(ValueEncoding.read(in));
            }
            rows.add(java.util.Collections.unmodifiableList(row)); // values may be null: not List.copyOf
        }
        return new GeneratedKeys(columns, rows);
    }
}
