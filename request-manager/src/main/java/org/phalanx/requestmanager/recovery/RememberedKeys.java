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
