package org.phalanx.controller.net;

import org.phalanx.requestmanager.api.BatchOutcome;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.api.TypedNull;
import org.phalanx.requestmanager.exec.StatementRunner;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test stand-in for the request manager's session: runs each request directly on one real
 * SQLite connection. It deliberately ignores maxRows so the controller's own limit is tested.
 * Tests subclass it to inject failures or delays.
 */
public class SqliteSession implements Session {
    final Connection connection;
    private final String user;
    /** Results handed out and not closed yet: a leak shows here. */
    final AtomicInteger openResults = new AtomicInteger();
    public final CountDownLatch closed = new CountDownLatch(1);

    public SqliteSession(Path db, String user) throws SQLException {
        this.connection = DriverManager.getConnection("jdbc:sqlite:" + db);
        this.user = user;
    }

    @Override
    public String virtualUser() {
        return user;
    }

    @Override
    public boolean getAutoCommit() {
        try {
            return connection.getAutoCommit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        connection.setAutoCommit(autoCommit);
    }

    @Override
    public void commit() throws SQLException {
        connection.commit();
    }

    @Override
    public void rollback() throws SQLException {
        connection.rollback();
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        connection.setTransactionIsolation(level);
    }

    @Override
    public int getTransactionIsolation() {
        return Connection.TRANSACTION_SERIALIZABLE;
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        connection.setReadOnly(readOnly);
    }

    @Override
    public Result execute(Request r) throws SQLException {
        PreparedStatement ps = r.wantsKeys()
                ? connection.prepareStatement(r.sql(), Statement.RETURN_GENERATED_KEYS)
                : connection.prepareStatement(r.sql());
        try {
            bind(ps, r.params());
            if (ps.execute()) {
                openResults.incrementAndGet();
                return new Result.Rows(ps.getResultSet(), () -> {
                    openResults.decrementAndGet();
                    ps.close();
                });
            }
            long count = ps.getUpdateCount();
            Result.Cached keys = null;
            if (r.wantsKeys()) {
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    keys = StatementRunner.copy(rs);
                }
            }
            ps.close();
            return new Result.UpdateCount(count, keys);
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    private static void bind(PreparedStatement ps, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            Object p = params.get(i);
            if (p instanceof TypedNull n) {
                ps.setNull(i + 1, n.sqlType());
            } else {
                ps.setObject(i + 1, p);
            }
        }
    }

    @Override
    public BatchOutcome executeBatch(String sql, List<List<Object>> parameterSets, List<String> keyColumns,
                                     int queryTimeoutSeconds) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (List<Object> set : parameterSets) {
                bind(ps, set);
                ps.addBatch();
            }
            return new BatchOutcome(Arrays.stream(ps.executeBatch()).asLongStream().toArray(), null);
        }
    }

    @Override
    public long[] executeBatch(List<String> statements, int queryTimeoutSeconds) throws SQLException {
        try (Statement s = connection.createStatement()) {
            for (String sql : statements) {
                s.addBatch(sql);
            }
            return Arrays.stream(s.executeBatch()).asLongStream().toArray();
        }
    }

    @Override
    public Result.Cached metadata(String method, List<Object> args) throws SQLException {
        if (!method.equals("getTables")) {
            throw new SQLException("metadata method " + method + " is not supported", "0A000");
        }
        String types = (String) args.get(3);
        try (ResultSet rs = connection.getMetaData().getTables((String) args.get(0), (String) args.get(1),
                (String) args.get(2), types == null ? null : types.split(","))) {
            return StatementRunner.copy(rs);
        }
    }

    @Override
    public void close() {
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } finally {
            closed.countDown();
        }
    }
}
