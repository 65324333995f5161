package org.phalanx.controller.result;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.RowBatch;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A backend result sent to the client batch by batch. It reads one row ahead, so a result that
 * ends exactly at a batch boundary is known to be finished with that batch and its backend
 * connection goes back to the pool at once instead of on the next FETCH.
 */
public final class ResultCursor implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(ResultCursor.class);

    private final ResultSet resultSet;
    private final AutoCloseable owner;
    private final List<ColumnInfo> columns;
    private final RowEncoder encoder;
    private final long maxRows;
    private long rowsRead;
    /** The ResultSet stands on a row not sent yet (the read-ahead). */
    private boolean onUnsentRow;
    private boolean exhausted;
    private boolean closed;

    private ResultCursor(ResultSet resultSet, AutoCloseable owner, List<ColumnInfo> columns, int maxRows) {
        this.resultSet = resultSet;
        this.owner = owner;
        this.columns = columns;
        this.encoder = new RowEncoder(ColumnDescriber.jdbcTypes(columns));
        this.maxRows = maxRows;
    }

    /**
     * @param owner   closed with the cursor (e.g. the request manager's Result, which releases the
     *                backend connection); may be null
     * @param maxRows the client's Statement.setMaxRows, 0 for no limit
     */
    public static ResultCursor open(ResultSet resultSet, AutoCloseable owner, int maxRows) throws SQLException {
        return new ResultCursor(resultSet, owner, ColumnDescriber.describe(resultSet.getMetaData()), maxRows);
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
            Object[] row = encoder.read(resultSet);
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
        if (exhausted || (maxRows > 0 && rowsRead >= maxRows) || !resultSet.next()) {
            exhausted = true;
            return false;
        }
        rowsRead++;
        onUnsentRow = true;
        return true;
    }

    /** Closes the ResultSet and its owner; a failure is logged, never thrown, as the rows are already out. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            resultSet.close();
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
