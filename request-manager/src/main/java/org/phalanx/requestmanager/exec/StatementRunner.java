package org.phalanx.requestmanager.exec;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.phalanx.requestmanager.analysis.LastInsertId;
import org.phalanx.requestmanager.api.BatchOutcome;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.RowReader;
import org.phalanx.requestmanager.backend.ParameterBinder;
import org.phalanx.requestmanager.backend.QueryTimeouts;

/** Runs one statement on one backend connection. */
public final class StatementRunner {
    private StatementRunner() {
    }

    /** Prepares the statement, asking for generated keys when the request wants them. */
    public static PreparedStatement prepare(Connection c, String sql, Request r) throws SQLException {
        return bind(unbound(c, sql, r), r);
    }

    private static PreparedStatement bind(PreparedStatement ps, Request r) throws SQLException {
        try {
            ParameterBinder.bindAll(ps, r.params());
            if (r.queryTimeoutSeconds() > 0) {
                ps.setQueryTimeout(r.queryTimeoutSeconds());
            }
            if (r.maxRows() > 0) {
                ps.setMaxRows(r.maxRows());
            }
            if (r.fetchSize() > 0) {
                ps.setFetchSize(r.fetchSize());
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    /**
     * Runs a statement a backend needs several statements for (translated DDL): every one but the
     * last as it is, the last as a single statement.
     */
    public static WriteOutcome executeWrite(Connection c, java.util.List<String> statements, Request r,
                                            LastInsertId lastInsertId) throws SQLException {
        return executeWrite(c, statements, r, lastInsertId, ResultDescriptions.Describing.DRIVER);
    }

    /** As {@link #executeWrite(Connection, java.util.List, Request, LastInsertId)}, a result it returns described so. */
    public static WriteOutcome executeWrite(Connection c, java.util.List<String> statements, Request r,
                                            LastInsertId lastInsertId, ResultDescriptions.Describing describing)
            throws SQLException {
        for (String sql : statements.subList(0, statements.size() - 1)) {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }
        return executeWrite(c, statements.get(statements.size() - 1), r, lastInsertId, describing);
    }

    private static PreparedStatement unbound(Connection c, String sql, Request r) throws SQLException {
        return prepareWithKeys(c, sql, r.keyColumns());
    }

    /** {@code sql} prepared to return the keys {@code keyColumns} (null: none; empty: the driver's choice). */
    public static PreparedStatement prepareWithKeys(Connection c, String sql, java.util.List<String> keyColumns)
            throws SQLException {
        if (keyColumns == null) {
            return c.prepareStatement(sql);
        }
        return keyColumns.isEmpty() ? c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)
                : c.prepareStatement(sql, keyColumns.toArray(new String[0]));
    }

    /**
     * The statements before the last as they are, then the last as one JDBC batch of the
     * requests' parameters (they share its text and the keys they want): the update counts, and
     * the generated keys when wanted.
     */
    public static BatchOutcome executeBatch(Connection c, java.util.List<String> statements, java.util.List<Request> batch)
            throws SQLException {
        for (String sql : statements.subList(0, statements.size() - 1)) {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }
        Request first = batch.get(0);
        try (PreparedStatement ps = unbound(c, statements.get(statements.size() - 1), first)) {
            for (Request r : batch) {
                ParameterBinder.bindAll(ps, r.params());
                ps.addBatch();
            }
            if (batch.get(0).queryTimeoutSeconds() > 0) {
                ps.setQueryTimeout(batch.get(0).queryTimeoutSeconds());
            }
            long[] counts = runBatch(ps);
            if (!first.wantsKeys()) {
                return new BatchOutcome(counts, null);
            }
            try (ResultSet keys = ps.getGeneratedKeys()) {
                return new BatchOutcome(counts, keys == null ? null : copy(keys));
            }
        }
    }

    /** A statement's batch of SQL texts, as one JDBC batch. */
    public static BatchOutcome executeTexts(Connection c, java.util.List<String> statements, int timeoutSeconds)
            throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.addBatch(sql);
            }
            if (timeoutSeconds > 0) {
                s.setQueryTimeout(timeoutSeconds);
            }
            return new BatchOutcome(runBatch(s), null);
        }
    }

    /** The batch's update counts, from a driver without large batches (int counts) too. */
    private static long[] runBatch(Statement s) throws SQLException {
        try {
            return s.executeLargeBatch();
        } catch (UnsupportedOperationException | SQLFeatureNotSupportedException e) {
            return Arrays.stream(s.executeBatch()).asLongStream().toArray();
        }
    }

    /**
     * @param lastInsertId the function whose value a write that changes it then reports ({@link
     *                     WriteOutcome}), or null
     */
    private static WriteOutcome executeWrite(Connection c, String sql, Request r, LastInsertId lastInsertId,
                                             ResultDescriptions.Describing describing) throws SQLException {
        boolean reports = lastInsertId != null && lastInsertId.changedBy(sql);
        boolean idInKeys = reports && lastInsertId.inGeneratedKeys();
        PreparedStatement prepared = idInKeys && !r.wantsKeys()
                ? bind(prepareWithKeys(c, sql, List.of()), r) : prepare(c, sql, r);
        try (PreparedStatement ps = prepared) {
            boolean rows;
            org.phalanx.engine.Engine engine = r.queryTimeoutSeconds() > 0 ? org.phalanx.engine.Engine.of(c) : null;
            try (QueryTimeouts.Watch timeout = QueryTimeouts.enforce(engine, ps, r.queryTimeoutSeconds())) {
                rows = ps.execute();
            }
            if (rows) {
                try (ResultSet rs = ps.getResultSet()) {
                    return new WriteOutcome(-1, copy(rs, describing), null, null);
                }
            }
            long count = updateCount(ps);
            Result.Cached keys = null;
            if (r.wantsKeys() || idInKeys) {
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    keys = rs == null ? null : copy(rs);
                }
            }
            Long id = !reports ? null : idInKeys ? firstKey(keys) : lastInsertId(c, lastInsertId);
            return new WriteOutcome(count, null, r.wantsKeys() ? keys : null, id);
        }
    }

    /** The first generated key, 0 if none (MariaDB's OK packet: see {@link LastInsertId}). */
    private static long firstKey(Result.Cached keys) {
        return keys == null || keys.rows().isEmpty() || keys.rows().get(0)[0] == null ? 0
                : ((Number) keys.rows().get(0)[0]).longValue();
    }

    /** The function's value on the connection that just wrote (SQLite's {@code last_insert_rowid()}). */
    private static long lastInsertId(Connection c, LastInsertId function) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(function.query())) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static long updateCount(Statement s) throws SQLException {
        try {
            return s.getLargeUpdateCount();
        } catch (SQLException | UnsupportedOperationException e) {
            return s.getUpdateCount();
        }
    }

    /**
     * The rows as the client will get them (canonical values, as a cached read's), copied so that
     * they no longer need the statement or connection: far cheaper than a {@code CachedRowSet},
     * which took a third of the controller's CPU under TPC-C's {@code SELECT ... FOR UPDATE}s.
     */
    public static Result.Cached copy(ResultSet rs) throws SQLException {
        return copy(rs, ResultDescriptions.Describing.DRIVER);
    }

    /** As {@link #copy(ResultSet)}, the metadata described so. */
    public static Result.Cached copy(ResultSet rs, ResultDescriptions.Describing describing) throws SQLException {
        ResultSetMetaData md = describing.describe(rs);
        RowReader reader = RowReader.of(md);
        List<Object[]> rows = new ArrayList<>();
        while (rs.next()) {
            rows.add(reader.read(rs));
        }
        return new Result.Cached(md, rows);
    }
}
