package org.phalanx.requestmanager.exec;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.QueryTimeouts;
import org.phalanx.requestmanager.backend.ReadShape;
import org.phalanx.requestmanager.backend.ReadStatements;
import org.phalanx.requestmanager.backend.RunningStatements;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.hetero.BackendStatements;

/** Executes a read on one backend: the execute stage of the read path. */
public final class BackendReads {
    private static final Logger LOG = LogManager.getLogger(BackendReads.class);

    /** SQL texts remembered as returning large results, at most; past that the memory starts afresh. */
    private static final int LARGE_TEXTS = 1000;

    private final BackendStatements statements;
    /** SQL texts (as a backend got them) that returned more than {@link ReadShape#ROWS_HELD} rows: read in batches at once. */
    private final Set<String> largeResults = ConcurrentHashMap.newKeySet();

    private final ResultDescriptions descriptions;

    public BackendReads(BackendStatements statements, ResultDescriptions descriptions) {
        this.statements = statements;
        this.descriptions = descriptions;
    }

    /**
     * Runs a read on a branch connection, or on a pooled one of {@code user}'s when branch is null,
     * already counted in the backend's pending requests. The returned rows hold the statement (and
     * the pooled connection) until closed. The count ends once the backend has answered: drivers
     * fetch the rows with the answer, and sending them on to the client is the controller's work,
     * not the backend's (while a read counts, another waiting for room could not use the idle
     * backend). A read whose rows come in batches ({@link ReadShape}) may go back to the backend for
     * each: it counts until closed.
     */
    public Result run(Backend b, Connection branch, Request r, String user, SessionSettings settings)
            throws SQLException {
        Connection c = null;
        ReadStatements.Statement s = null;
        long start = System.nanoTime();
        boolean timed = false;
        boolean rowsEndCount = false; // true once returned rows that end the count when closed
        try {
            c = branch != null ? branch : b.connectionFor(user, settings);
            String sql = statements.forRead(b, r.sql());
            ReadShape shape = ReadShape.of(b.engine(), r, largeResults.contains(sql));
            s = acquire(b, c, branch, sql, r, shape);
            ResultDescriptions.Describing describing = descriptions.before(b, sql, r, settings);
            boolean rows = execute(b, c, s, r);
            if (rows && shape.probe() && tooMany(s.prepared().getResultSet())) {
                if (largeResults.size() >= LARGE_TEXTS) {
                    largeResults.clear(); // rare: a forgotten text costs one probe more
                }
                largeResults.add(sql);
                LOG.debug("{}: a read returned more than {} rows: read again in batches: {}", b.name(),
                        ReadShape.ROWS_HELD, sql);
                releaseAfter(b, s, s.prepared().getResultSet());
                s = null;
                shape = ReadShape.streamed(r);
                s = acquire(b, c, branch, sql, r, shape);
                rows = execute(b, c, s, r);
            }
            PreparedStatement ps = s.prepared();
            b.statistics().read(System.nanoTime() - start, false); // until the first rows are ready
            timed = true;
            if (rows) {
                ResultSet rs = statements.results(ps.getResultSet(), b);
                ResultSetMetaData description = describing.describe(rs);
                ReadStatements.Statement statement = s;
                Connection pooled = branch == null ? c : null;
                boolean streamed = shape.fetchSize() > 0;
                rowsEndCount = streamed; // otherwise the count ends below, now
                return new Result.Rows(rs, () -> {
                    try {
                        releaseAfter(b, statement, rs);
                        Closeables.closeQuietly(pooled);
                    } finally {
                        if (streamed) {
                            b.readFinished();
                        }
                    }
                }, List.of(), description);
            }
            long count = ps.getUpdateCount();
            b.readStatements().release(s);
            if (branch == null) {
                Closeables.closeQuietly(c);
            }
            return new Result.UpdateCount(count, null);
        } catch (SQLException | RuntimeException e) {
            if (!timed) {
                b.statistics().read(System.nanoTime() - start, true);
            }
            if (s != null) {
                ReadStatements.discard(s);
            }
            if (branch == null) {
                Closeables.closeQuietly(c);
            }
            throw e;
        } finally {
            if (!rowsEndCount) {
                b.readFinished();
            }
        }
    }

    private static ReadStatements.Statement acquire(Backend b, Connection c, Connection branch, String sql, Request r,
                                                    ReadShape shape) throws SQLException {
        if (branch == null && shape.needsTransaction(b.engine())) {
            // pgjdbc reads a result in fetch-size batches (a cursor) only inside a transaction: in
            // auto-commit it loads every row at once. The pool (or the settings' reset) rolls it
            // back and restores auto-commit when the connection is given back.
            c.setAutoCommit(false);
        }
        return b.readStatements().acquire(c, sql, r, shape);
    }

    /** @return whether the statement produced rows */
    private static boolean execute(Backend b, Connection c, ReadStatements.Statement s, Request r) throws SQLException {
        PreparedStatement ps = s.prepared();
        try (RunningStatements.Running running = b.running().startOn(c, r.sql());
             QueryTimeouts.Watch timeout = QueryTimeouts.enforce(b.engine(), ps, r.queryTimeoutSeconds())) {
            return ps.execute();
        }
    }

    /** Whether a probed (scrollable) result holds more rows than a read may keep in memory; if not, it is rewound. */
    private static boolean tooMany(ResultSet rs) throws SQLException {
        if (rs.last() && rs.getRow() > ReadShape.ROWS_HELD) {
            return true;
        }
        rs.beforeFirst();
        return false;
    }

    /** Closes a read's result and keeps its statement for the next read, unless closing failed. */
    private static void releaseAfter(Backend b, ReadStatements.Statement statement, ResultSet rs) {
        try {
            rs.close();
            b.readStatements().release(statement);
        } catch (SQLException | RuntimeException e) {
            LOG.debug("closing a read result failed: {}", e.getMessage());
            ReadStatements.discard(statement);
        }
    }
}
