package org.phalanx.driver;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.phalanx.protocol.Batch;
import org.phalanx.protocol.BatchResult;
import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.UpdateCount;

/**
 * java.sql.Statement: each execution is one EXECUTE (or BATCH) request. A statement has at most
 * one open result; executing again or closing closes it (which frees its server cursor).
 */
public class PhalanxStatement implements Statement {
    final PhalanxConnection connection;
    private final int resultSetType;
    private final List<String> batch = new ArrayList<>();
    private boolean closed;
    private PhalanxResultSet currentResult;
    private long updateCount = -1;
    private PhalanxResultSet generatedKeys;
    private int maxRows;
    private int fetchSize;
    private int fetchDirection = ResultSet.FETCH_FORWARD;
    private int queryTimeout;
    private int maxFieldSize;
    private boolean poolable;
    private boolean closeOnCompletion;

    PhalanxStatement(PhalanxConnection connection, int resultSetType) {
        this.connection = connection;
        this.resultSetType = resultSetType;
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw SqlExceptions.closed("statement");
        }
        connection.checkOpen();
    }

    /** Runs one EXECUTE; returns true when it produced a result set (JDBC execute() semantics). */
    final boolean run(String sql, List<Object> params, byte mode, GeneratedKeys keys) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw SqlExceptions.create("SQL must not be null", SqlExceptions.INVALID_ARGUMENT);
        }
        clearResults();
        Boolean autoCommit = mode != Execute.QUERY ? AutoCommitStatement.valueSet(sql) : null; // null unless SET autocommit
        if (autoCommit != null && IdentifierCase.isMariaDb(connection.hello().productName())) {
            connection.setAutoCommit(autoCommit); // as on one MariaDB: this connection's mode, kept across failovers
            updateCount = 0;
            return false;
        }
        boolean scrollable = resultSetType == ResultSet.TYPE_SCROLL_INSENSITIVE;
        Execute request = new Execute(mode, sql, params, keys.mode(), keys.columns(), maxRows,
                effectiveFetchSize(), queryTimeout, scrollable);
        ProtocolConnection[] on = new ProtocolConnection[1];
        // applied on a controller lost on the way: its update count (and keys) are its whole result
        boolean wantsKeys = keys.mode() != Execute.NO_KEYS;
        Failover.IfApplied<ProtocolConnection.ExecuteReply> ifApplied = mode == Execute.QUERY ? null
                : (applied, lost) -> AppliedResults.ofStatement(applied, wantsKeys, lost);
        ProtocolConnection.ExecuteReply reply = connection.call(connection.exchangeOf(sql), p -> {
            on[0] = p;
            return p.execute(request);
        }, ifApplied);
        connection.ran(sql);
        ProtocolConnection protocol = on[0];
        int level = IsolationStatement.levelSet(sql);
        if (level >= 0) {
            connection.isolationSetBySql(level);
        }
        if (reply.resultSet() != null) {
            PhalanxResultSet rs = PhalanxResultSet.forReply(this, protocol, reply.resultSet(), resultSetType,
                    effectiveFetchSize(), maxRows);
            if (mode == Execute.UPDATE) {
                // The controller checks the mode; this guards against one that did not.
                rs.close();
                throw SqlExceptions.create("a result set was returned where an update count was expected",
                        SqlExceptions.TOO_MANY_RESULT_SETS);
            }
            currentResult = rs;
            return true;
        }
        if (mode == Execute.QUERY) {
            throw SqlExceptions.create("the statement did not return a result set", SqlExceptions.NO_DATA);
        }
        UpdateCount count = reply.updateCount();
        updateCount = count.count();
        if (count.generatedKeys() != null) {
            generatedKeys = PhalanxResultSet.inMemory(this, count.generatedKeys().columns(),
                    PhalanxResultSet.readAll(protocol, count.generatedKeys(), 0, 0));
        }
        return false;
    }

    final PhalanxResultSet runQuery(String sql, List<Object> params) throws SQLException {
        run(sql, params, Execute.QUERY, GeneratedKeys.NONE);
        return currentResult;
    }

    final long runUpdate(String sql, List<Object> params, GeneratedKeys keys) throws SQLException {
        run(sql, params, Execute.UPDATE, keys);
        return updateCount;
    }

    /** Sends a BATCH; an element failure becomes BatchUpdateException with the counts before it. */
    final long[] runBatch(Batch request, int size) throws SQLException {
        checkOpen();
        clearResults();
        if (size == 0) {
            return new long[0];
        }
        BatchResult result;
        try {
            // applied on a controller lost on the way: the counts (and keys) it had, or what of it was applied
            boolean wantsKeys = request.keys() != Execute.NO_KEYS;
            Failover.IfApplied<BatchResult> ifApplied = (applied, lost) -> AppliedResults.ofBatch(applied, size,
                    wantsKeys, lost);
            result = connection.call(Failover.Exchange.WRITE, p -> p.batch(request), ifApplied);
        } catch (SQLException e) {
            throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), new long[0], e);
        }
        if (result.error() != null) {
            SQLException cause = SqlExceptions.fromReply(result.error());
            throw new BatchUpdateException(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(),
                    result.counts(), cause);
        }
        if (result.generatedKeys() != null) {
            generatedKeys = PhalanxResultSet.inMemory(this, result.generatedKeys().columns(),
                    PhalanxResultSet.readAll(connection.protocol(), result.generatedKeys(), 0, 0));
        }
        return result.counts();
    }

    private int effectiveFetchSize() {
        return fetchSize > 0 ? fetchSize : connection.defaultFetchSize();
    }

    final int queryTimeoutSeconds() {
        return queryTimeout;
    }

    /** Closes the open result and forgets the last update count and keys. */
    private void clearResults() throws SQLException {
        updateCount = -1;
        PhalanxResultSet keys = generatedKeys;
        generatedKeys = null;
        if (keys != null) {
            keys.closeLocally();
        }
        PhalanxResultSet rs = currentResult;
        if (rs != null) {
            currentResult = null;
            boolean wasCloseOnCompletion = closeOnCompletion;
            closeOnCompletion = false; // re-executing must not close the statement itself
            try {
                rs.close();
            } finally {
                closeOnCompletion = wasCloseOnCompletion;
            }
        }
    }

    /** Called by a result set of this statement when it closes. */
    void resultSetClosed(PhalanxResultSet rs) throws SQLException {
        if (rs == currentResult) {
            currentResult = null;
            if (closeOnCompletion && !closed) {
                close();
            }
        }
    }

    /** Counts beyond int range are clamped; the executeLarge* methods give the exact value. */
    static int toIntCount(long count) {
        return (int) Math.min(count, Integer.MAX_VALUE);
    }

    static int[] toIntCounts(long[] counts) {
        int[] r = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            r[i] = toIntCount(counts[i]);
        }
        return r;
    }

    // ---- execution --------------------------------------------------------------------------

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        return runQuery(sql, List.of());
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return toIntCount(executeLargeUpdate(sql));
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        return runUpdate(sql, List.of(), GeneratedKeys.NONE);
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return toIntCount(executeLargeUpdate(sql, autoGeneratedKeys));
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return runUpdate(sql, List.of(), GeneratedKeys.of(autoGeneratedKeys));
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("generated keys by column index");
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return executeUpdate(sql, columnIndexes);
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return toIntCount(executeLargeUpdate(sql, columnNames));
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        return runUpdate(sql, List.of(), GeneratedKeys.named(columnNames));
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        return run(sql, List.of(), Execute.ANY, GeneratedKeys.NONE);
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        return run(sql, List.of(), Execute.ANY, GeneratedKeys.of(autoGeneratedKeys));
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("generated keys by column index");
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        return run(sql, List.of(), Execute.ANY, GeneratedKeys.named(columnNames));
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return currentResult;
    }

    @Override
    public int getUpdateCount() throws SQLException {
        return toIntCount(getLargeUpdateCount());
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return updateCount;
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(CLOSE_CURRENT_RESULT);
    }

    /** Every execution yields a single result, so there is never a next one. */
    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        switch (current) {
            case CLOSE_CURRENT_RESULT, CLOSE_ALL_RESULTS -> {
                PhalanxResultSet rs = currentResult;
                if (rs != null) {
                    rs.close();
                }
            }
            case KEEP_CURRENT_RESULT -> {
                // the caller keeps reading the open result set
            }
            default -> throw SqlExceptions.create("invalid getMoreResults argument " + current,
                    SqlExceptions.INVALID_ARGUMENT);
        }
        currentResult = null;
        updateCount = -1;
        return false;
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        if (generatedKeys != null) {
            return generatedKeys;
        }
        return PhalanxResultSet.inMemory(this, List.<ColumnInfo>of(), List.of());
    }

    // ---- batches ----------------------------------------------------------------------------

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw SqlExceptions.create("SQL must not be null", SqlExceptions.INVALID_ARGUMENT);
        }
        batch.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return toIntCounts(executeLargeBatch());
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<String> statements = List.copyOf(batch);
        batch.clear(); // JDBC: the batch is reset whether or not it succeeds
        return runBatch(new Batch(null, statements, List.of(), queryTimeout), statements.size());
    }

    // ---- settings ---------------------------------------------------------------------------

    @Override
    public int getMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        return getMaxRows();
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw SqlExceptions.create("max rows must not be negative", SqlExceptions.INVALID_ARGUMENT);
        }
        maxRows = (int) Math.min(max, Integer.MAX_VALUE);
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw SqlExceptions.create("fetch size must not be negative", SqlExceptions.INVALID_ARGUMENT);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD && direction != ResultSet.FETCH_REVERSE
                && direction != ResultSet.FETCH_UNKNOWN) {
            throw SqlExceptions.create("invalid fetch direction " + direction, SqlExceptions.INVALID_ARGUMENT);
        }
        if (resultSetType == ResultSet.TYPE_FORWARD_ONLY && direction != ResultSet.FETCH_FORWARD) {
            throw SqlExceptions.create("a TYPE_FORWARD_ONLY statement only fetches forward",
                    SqlExceptions.INVALID_CURSOR_STATE);
        }
        fetchDirection = direction;
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return fetchDirection;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw SqlExceptions.create("query timeout must not be negative", SqlExceptions.INVALID_ARGUMENT);
        }
        queryTimeout = seconds;
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeout;
    }

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return maxFieldSize;
    }

    /** Remembered but not enforced: values always arrive whole. */
    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw SqlExceptions.create("max field size must not be negative", SqlExceptions.INVALID_ARGUMENT);
        }
        maxFieldSize = max;
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen(); // SQL goes to the backends unchanged either way
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("named cursors (positioned updates)");
    }

    @Override
    public void cancel() throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("Statement.cancel (use setQueryTimeout)");
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return resultSetType;
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    // ---- life cycle -------------------------------------------------------------------------

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        connection.statementClosed(this);
        PhalanxResultSet rs = currentResult;
        currentResult = null;
        if (generatedKeys != null) {
            generatedKeys.closeLocally();
            generatedKeys = null;
        }
        if (rs != null && !rs.isClosed()) {
            rs.close(); // frees the server cursor if the result was not read to the end
        }
    }

    /** Closes without network traffic, as the connection closes. */
    void closeLocally() {
        closed = true;
        if (currentResult != null) {
            currentResult.closeLocally();
            currentResult = null;
        }
        if (generatedKeys != null) {
            generatedKeys.closeLocally();
            generatedKeys = null;
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SqlExceptions.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
