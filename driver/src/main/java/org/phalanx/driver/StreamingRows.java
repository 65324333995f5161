package org.phalanx.driver;

import java.sql.SQLException;
import java.util.List;

import org.phalanx.protocol.Protocol;
import org.phalanx.protocol.ResultSetReply;
import org.phalanx.protocol.RowBatch;

/**
 * Forward-only rows read from a server cursor one batch at a time: only the current batch is
 * held, so a result of any size needs memory for one fetch size of rows.
 *
 * <p>The server frees its cursor when it sends the batch marked last; until then closing these
 * rows sends CLOSE_CURSOR.
 */
final class StreamingRows implements Rows {
    private final ProtocolConnection protocol;
    private final int cursorId;
    private final int columnCount;
    private final int maxRows;
    private int fetchSize;
    private List<Object[]> batch;
    private int index;
    private boolean serverDone;
    private Object[] current;
    private int row;
    private boolean exhausted;
    private SQLException failure;
    private boolean closed;
    private int fetchCount;
    private int largestBatch;

    StreamingRows(ProtocolConnection protocol, ResultSetReply reply, int fetchSize, int maxRows) {
        this.protocol = protocol;
        this.cursorId = reply.cursorId();
        this.columnCount = reply.columns().size();
        this.fetchSize = fetchSize;
        this.maxRows = maxRows;
        this.batch = reply.firstBatch().rows();
        this.serverDone = reply.cursorId() == 0 || reply.firstBatch().last();
        this.largestBatch = batch.size();
    }

    void setFetchSize(int fetchSize) {
        this.fetchSize = fetchSize;
    }

    @Override
    public boolean next() throws SQLException {
        if (failure != null) {
            throw SqlExceptions.create("the result set cannot go on after a failed fetch: " + failure.getMessage(),
                    failure.getSQLState(), failure.getErrorCode(), failure);
        }
        if (exhausted || closed) {
            return false;
        }
        if (maxRows > 0 && row >= maxRows) {
            return finish();
        }
        while (index >= batch.size()) {
            if (serverDone) {
                return finish();
            }
            fetchNext();
        }
        current = batch.get(index++);
        row++;
        return true;
    }

    private boolean finish() throws SQLException {
        current = null;
        exhausted = true;
        releaseCursor();
        return false;
    }

    private void fetchNext() throws SQLException {
        RowBatch next;
        try {
            next = protocol.fetch(cursorId, fetchSize > 0 ? fetchSize : Protocol.DEFAULT_FETCH_SIZE, columnCount);
        } catch (SQLException e) {
            // The server drops a cursor whose fetch failed (and a broken connection has none left),
            // so there is nothing to close; the rows that never came must not look like the end.
            failure = e;
            serverDone = true;
            batch = List.of();
            index = 0;
            throw e;
        }
        fetchCount++;
        batch = next.rows();
        index = 0;
        serverDone = next.last();
        largestBatch = Math.max(largestBatch, batch.size());
    }

    private void releaseCursor() throws SQLException {
        batch = List.of();
        index = 0;
        if (!serverDone) {
            serverDone = true;
            if (protocol.isUsable()) {
                protocol.closeCursor(cursorId);
            }
        }
    }

    @Override
    public Object[] current() {
        return current;
    }

    @Override
    public int getRow() {
        return current == null ? 0 : row;
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        if (row > 0 || exhausted || closed) {
            return false;
        }
        // False for an empty result, so look for a first row, fetching if the first batch came empty.
        while (index >= batch.size() && !serverDone) {
            fetchNext();
        }
        return index < batch.size();
    }

    @Override
    public boolean isAfterLast() {
        return exhausted && row > 0; // JDBC: false for an empty result
    }

    @Override
    public boolean isFirst() {
        return current != null && row == 1;
    }

    @Override
    public boolean isLast() throws SQLException {
        if (current == null) {
            return false;
        }
        if (maxRows > 0 && row >= maxRows) {
            return true;
        }
        // May fetch the next batch early; the current row is held apart so nothing is lost.
        while (index >= batch.size() && !serverDone) {
            fetchNext();
        }
        return index >= batch.size();
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        current = null;
        releaseCursor();
    }

    @Override
    public void closeLocally() {
        closed = true;
        current = null;
        serverDone = true;
        batch = List.of();
    }

    /** Number of FETCH requests sent so far (for tests). */
    int fetchCount() {
        return fetchCount;
    }

    /** The most rows ever held at once (for tests: never more than one batch). */
    int largestBatch() {
        return largestBatch;
    }

    /** Rows currently buffered and not yet returned (for tests). */
    int bufferedRows() {
        return batch.size() - index;
    }
}
