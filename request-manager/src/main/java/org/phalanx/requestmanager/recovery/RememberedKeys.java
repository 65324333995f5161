package org.phalanx.requestmanager.recovery;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import javax.sql.rowset.RowSetMetaDataImpl;
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.requestmanager.api.Result;

/**
 * The generated keys of an applied auto-commit statement in the form a group's member remembers
 * them ({@link GeneratedKeys}), and back: a driver that lost its controller is answered the keys
 * the statement's execution produced (docs/distribution.md, exactly-once retries).
 */
public final class RememberedKeys {
    /**
     * At most this many key rows are remembered for one statement: a driver asking about a statement
     * that generated more is told it was applied, without its keys (it reports them unknown).
     */
    public static final int MAX_ROWS = 1000;

    private RememberedKeys() {
    }

    /** The keys to remember; null when there are none, more than {@link #MAX_ROWS}, or of a type the log cannot hold. */
    public static GeneratedKeys of(Result.Cached keys) throws SQLException {
        if (keys == null || keys.rows().size() > MAX_ROWS) {
            return null;
        }
        ResultSetMetaData md = keys.metaData();
        List<GeneratedKeys.Column> columns = new ArrayList<>(md.getColumnCount());
        for (int i = 1; i <= md.getColumnCount(); i++) {
            columns.add(new GeneratedKeys.Column(md.getColumnLabel(i), md.getColumnType(i), md.getColumnTypeName(i)));
        }
        List<List<Object>> rows = new ArrayList<>(keys.rows().size());
        for (Object[] row : keys.rows()) {
            rows.add(Collections.unmodifiableList(Arrays.asList(row.clone())));
        }
        GeneratedKeys remembered = new GeneratedKeys(columns, rows);
        return remembered.encodable() ? remembered : null;
    }

    /**
     * A batch's keys, as each element generated them: the rows in order, as many for each element as
     * its update count; none for any when the batch generated none (sqlite-jdbc reports no keys for a
     * batch). Nulls when that cannot be told (a count not known, or not adding up to the rows; keys
     * not remembered, as for {@link #of}).
     */
    public static GeneratedKeys[] perElement(long[] counts, Result.Cached keys) throws SQLException {
        GeneratedKeys[] each = new GeneratedKeys[counts.length];
        boolean none = keys != null && keys.rows().isEmpty();
        if (keys == null || !none && (Arrays.stream(counts).anyMatch(c -> c < 0)
                || Arrays.stream(counts).sum() != keys.rows().size())) {
            return each;
        }
        int from = 0;
        for (int i = 0; i < counts.length; i++) {
            int to = none ? from : from + (int) counts[i];
            each[i] = of(new Result.Cached(keys.metaData(), keys.rows().subList(from, to)));
            from = to;
        }
        return each;
    }

    /** The keys as the statement's result held them. */
    public static Result.Cached toResult(GeneratedKeys keys) throws SQLException {
        RowSetMetaDataImpl md = new RowSetMetaDataImpl();
        md.setColumnCount(keys.columns().size());
        for (int i = 1; i <= keys.columns().size(); i++) {
            GeneratedKeys.Column c = keys.columns().get(i - 1);
            md.setColumnName(i, c.label());
            md.setColumnLabel(i, c.label());
            md.setColumnType(i, c.jdbcType());
            md.setColumnTypeName(i, c.typeName());
            md.setTableName(i, "");
            md.setSchemaName(i, "");
            md.setCatalogName(i, "");
        }
        List<Object[]> rows = new ArrayList<>(keys.rows().size());
        for (List<Object> row : keys.rows()) {
            rows.add(row.toArray());
        }
        return new Result.Cached(md, rows);
    }
}
