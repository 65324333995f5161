package org.phalanx.requestmanager.distribution;

import java.sql.SQLException;
import java.util.List;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.api.BatchOutcome;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;

/**
 * A read-only session on a follower (docs/distribution.md, 'Reads on the followers'): served by the
 * follower's own backends, as current as its copy of the group's log, or, with a read barrier
 * ({@code followerReads=current}), as current as the group at the start of each auto-commit read
 * and transaction; it stays read-only, since a write here would reach this member's backends only.
 */
final class FollowerReadSession implements Session {
    /** Returns once this follower's backends hold every write the group committed before it was called. */
    @FunctionalInterface
    interface ReadBarrier {
        ReadBarrier NONE = () -> { };

        void await() throws SQLException;
    }

    private final Session session;
    private final ReadBarrier barrier;
    /** Whether the transaction under way has passed the barrier (auto-commit reads pass it each time). */
    private boolean passed;

    FollowerReadSession(Session session, ReadBarrier barrier) throws SQLException {
        this.session = session;
        this.barrier = barrier;
        session.setReadOnly(true);
    }

    private void barrier() throws SQLException {
        if (session.getAutoCommit() || !passed) {
            barrier.await();
            passed = !session.getAutoCommit();
        }
    }

    @Override
    public String virtualUser() {
        return session.virtualUser();
    }

    @Override
    public boolean getAutoCommit() {
        return session.getAutoCommit();
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        passed = false;
        session.setAutoCommit(autoCommit);
    }

    @Override
    public void commit() throws SQLException {
        passed = false;
        session.commit();
    }

    @Override
    public void rollback() throws SQLException {
        passed = false;
        session.rollback();
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        session.setTransactionIsolation(level);
    }

    @Override
    public int getTransactionIsolation() {
        return session.getTransactionIsolation();
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        if (!readOnly) {
            throw new SQLException("this session reads from a follower of the virtual database's group: it stays"
                    + " read-only (connect without readOnly=true to reach the primary for writes)",
                    SqlState.READ_ONLY_SQL_TRANSACTION.code());
        }
    }

    @Override
    public Result execute(Request request) throws SQLException {
        barrier();
        return session.execute(request);
    }

    @Override
    public BatchOutcome executeBatch(String sql, List<List<Object>> parameterSets, List<String> keyColumns,
                                     int queryTimeoutSeconds) throws SQLException {
        barrier();
        return session.executeBatch(sql, parameterSets, keyColumns, queryTimeoutSeconds);
    }

    @Override
    public long[] executeBatch(List<String> statements, int queryTimeoutSeconds) throws SQLException {
        barrier();
        return session.executeBatch(statements, queryTimeoutSeconds);
    }

    @Override
    public Result.Cached metadata(String method, List<Object> args) throws SQLException {
        return session.metadata(method, args);
    }

    @Override
    public void close() {
        session.close();
    }
}
