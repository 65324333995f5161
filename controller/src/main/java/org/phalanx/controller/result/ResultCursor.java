package org.phalanx.controller.result;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.RowBatch;
import org.phalanx.protocol.SqlNull;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.TypedNull;
import org.phalanx.requestmanager.api.RowReader;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A backend result sent to the client batch by batch. It reads one row ahead, so a result that
 * ends exactly at a batch boundary is known to be finished with that batch and its backend
 * connection goes back to the pool at once instead of on the next FETCH.
 */
public final class ResultCursor implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(ResultCursor.class);

    /** Null for a cached result: then every row is in {@code pending}. */
    private final ResultSet resultSet;
    private final AutoCloseable owner;
    private final List<ColumnInfo> columns;
    private final RowReader reader;
    private final long maxRows;
    /** Rows already read (a cached result, or what the cache read before giving up), sent before the rest. */
    private final Iterator<Object[]> pending;
    private Object[] pendingRow;
    private long rowsRead;
    /** The ResultSet stands on a row not sent yet (the read-ahead). */
    private boolean onUnsentRow;
    private boolean exhausted;
    private boolean closed;

    private ResultCursor(ResultSet resultSet, AutoCloseable owner, List<ColumnInfo> columns, int maxRows,
                         List<Object[]> pending) {
        this.resultSet = resultSet;
        this.owner = owner;
        this.columns = columns;
        this.reader = new RowReader(ColumnDescriber.jdbcTypes(columns));
        this.maxRows = maxRows;
        this.pending = pending.iterator();
    }

    /**
     * A live result whose first rows were already read into memory; closing the cursor closes
     * {@code rows} (which releases the backend connection).
     *
     * @param maxRows the client's Statement.setMaxRows, 0 for no limit
     */
    public static ResultCursor open(Result.Rows rows, int maxRows) throws SQLException {
        ResultSet rs = rows.resultSet();
        return new ResultCursor(rs, rows, ColumnDescriber.describe(rows.metaData()), maxRows, rows.prefix());
    }

    /** A result held in memory (a cache hit). */
    public static ResultCursor of(Result.Cached cached, int maxRows) throws SQLException {
        return new ResultCursor(null, null, ColumnDescriber.describe(cached.metaData()), maxRows, cached.rows());
    }

    public List<ColumnInfo> columns() {
        return columns;
    }

    /**
     * Reads up to {@code rows} rows, fewer when their estimated wire size passes {@code byteBudget}
     * (a batch of large rows must still fit in a frame). The batch is last when nothing remains.
     */
    public RowBatch next(int rows, long byteBudget) throws SQLException {
        List<Object[]> batch = new ArrayList<>(Math.min(rows, 1024));
        long bytes = 0;
        while (batch.size() < rows && bytes < byteBudget && (onUnsentRow || advance())) {
            Object[] row = pendingRow != null ? wire(pendingRow) : wire(reader.read(resultSet));
            pendingRow = null;
            onUnsentRow = false;
            batch.add(row);
            bytes += estimatedSize(row);
        }
        if (!onUnsentRow && !exhausted) {
            advance();
        }
        return new RowBatch(batch, exhausted);
    }

    /** Every remaining row in one batch. */
    public RowBatch rest() throws SQLException {
        return next(Integer.MAX_VALUE, Long.MAX_VALUE);
    }

    private boolean advance() throws SQLException {
        if (exhausted || (maxRows > 0 && rowsRead >= maxRows)) {
            exhausted = true;
            return false;
        }
        if (pending.hasNext()) {
            pendingRow = pending.next();
        } else if (resultSet == null || !resultSet.next()) {
            exhausted = true;
            return false;
        }
        rowsRead++;
        onUnsentRow = true;
        return true;
    }

    /** The request manager marks NULLs with their type; the wire has its own marker. Copies: cached rows are shared. */
    private static Object[] wire(Object[] row) {
        Object[] out = row;
        for (int i = 0; i < row.length; i++) {
            if (row[i] instanceof TypedNull n) {
                if (out == row) {
                    out = row.clone();
                }
                out[i] = new SqlNull(n.sqlType());
            }
        }
        return out;
    }

    /** Closes the ResultSet and its owner; a failure is logged, never thrown, as the rows are already out. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (resultSet != null) {
                resultSet.close();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Closing a backend result set failed: {}", e.toString());
        }
        if (owner != null) {
            try {
                owner.close();
            } catch (Exception e) {
                LOG.warn("Releasing a backend result failed: {}", e.toString());
            }
        }
    }

    /** Upper-bound estimate of a row's encoded size; cheap, as it runs for every row. */
    private static long estimatedSize(Object[] row) {
        long size = 0;
        for (Object v : row) {
            if (v instanceof String s) {
                size += 5 + 3L * s.length();
            } else if (v instanceof byte[] b) {
                size += 5 + b.length;
            } else if (v instanceof BigDecimal d) {
                size += 10 + d.unscaledValue().bitLength() / 8;
            } else {
                size += 17;
            }
        }
        return size;
    }
}
