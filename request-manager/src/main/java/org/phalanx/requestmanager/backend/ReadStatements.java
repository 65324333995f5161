package org.phalanx.requestmanager.backend;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.requestmanager.api.Request;

/**
 * Prepared read statements kept open per physical backend connection and reused by later reads
 * of the same SQL text on that connection. SQLite parses and plans a statement anew on every
 * prepare (a quarter of an uncached point read's CPU); other drivers at least allocate and track
 * a new statement.
 *
 * <p>A statement is taken out of its connection's set while in use, so two open results of the
 * same SQL on one connection (two cursors in a transaction) get two statements. Statements live
 * as long as their connection: sets of connections the pool has closed are dropped (and their
 * statements with them) whenever a new connection shows up.
 */
public final class ReadStatements {
    private static final Logger LOG = LogManager.getLogger(ReadStatements.class);
    /** Distinct SQL texts kept per connection; the least recently used is closed beyond that. */
    static final int PER_CONNECTION = 64;

    private final Map<ConnectionIdentity, Kept> byConnection = new ConcurrentHashMap<>();

    /** Connections are told apart by identity: a driver's equals and hashCode are its own business. */
    private record ConnectionIdentity(Connection connection) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ConnectionIdentity other && other.connection == connection;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(connection);
        }
    }

    /** A statement and the settings last applied to it, so unchanged settings cost no driver call. */
    public static final class Statement {
        private final PreparedStatement ps;
        private final Connection connection;
        private final String sql;
        private final boolean scrollable;
        private int maxRows;
        private int fetchSize;
        private int timeout;

        private Statement(PreparedStatement ps, Connection connection, String sql, boolean scrollable) {
            this.ps = ps;
            this.connection = connection;
            this.sql = sql;
            this.scrollable = scrollable;
        }

        public PreparedStatement prepared() {
            return ps;
        }
    }

    /** One connection's idle statements, least recently used first (scrollable ones apart: a statement's kind is fixed). */
    private static final class Kept {
        final LinkedHashMap<String, Statement> idle = new LinkedHashMap<>(16, 0.75f, true);
        final LinkedHashMap<String, Statement> idleScrollable = new LinkedHashMap<>(16, 0.75f, true);

        LinkedHashMap<String, Statement> of(boolean scrollable) {
            return scrollable ? idleScrollable : idle;
        }

        void discardAll() {
            idle.values().forEach(ReadStatements::discard);
            idle.clear();
            idleScrollable.values().forEach(ReadStatements::discard);
            idleScrollable.clear();
        }
    }

    /**
     * A statement for {@code sql} on {@code pooled}'s physical connection, parameters bound from
     * {@code r} and limits from {@code shape}. Give it back with {@link #release} once its result is
     * closed, or {@link #discard} it after an error.
     */
    public Statement acquire(Connection pooled, String sql, Request r, ReadShape shape) throws SQLException {
        Connection physical = pooled.unwrap(Connection.class);
        ConnectionIdentity id = new ConnectionIdentity(physical);
        Kept kept = byConnection.get(id);
        if (kept == null) {
            dropClosedConnections();
            kept = byConnection.computeIfAbsent(id, c -> new Kept());
        }
        Statement s;
        synchronized (kept) {
            s = kept.of(shape.scrollable()).remove(sql);
        }
        if (s == null) {
            s = new Statement(shape.scrollable()
                    ? physical.prepareStatement(sql, ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY)
                    : physical.prepareStatement(sql), physical, sql, shape.scrollable());
        } else {
            s.ps.clearParameters(); // a request binding fewer parameters must not inherit old values
        }
        try {
            ParameterBinder.bindAll(s.ps, r.params());
            if (s.maxRows != shape.maxRows()) {
                s.ps.setMaxRows(shape.maxRows());
                s.maxRows = shape.maxRows();
            }
            if (s.fetchSize != shape.fetchSize()) {
                s.ps.setFetchSize(shape.fetchSize());
                s.fetchSize = shape.fetchSize();
            }
            if (s.timeout != r.queryTimeoutSeconds()) {
                s.ps.setQueryTimeout(r.queryTimeoutSeconds());
                s.timeout = r.queryTimeoutSeconds();
            }
            return s;
        } catch (SQLException | RuntimeException e) {
            discard(s);
            throw e;
        }
    }

    /** Keeps the statement for the next read of its SQL on its connection. */
    public void release(Statement s) {
        Kept kept = byConnection.get(new ConnectionIdentity(s.connection));
        if (kept == null) {
            discard(s);
            return;
        }
        List<Statement> evicted = null; // closed outside the lock; usually nothing is
        synchronized (kept) {
            LinkedHashMap<String, Statement> idle = kept.of(s.scrollable);
            Statement other = idle.put(s.sql, s);
            if (other != null || idle.size() > PER_CONNECTION) {
                evicted = new ArrayList<>();
                if (other != null) {
                    evicted.add(other); // a second statement of the same SQL: one is enough
                }
                Iterator<Statement> oldest = idle.values().iterator();
                while (idle.size() > PER_CONNECTION) {
                    evicted.add(oldest.next());
                    oldest.remove();
                }
            }
        }
        if (evicted != null) {
            evicted.forEach(ReadStatements::discard);
        }
    }

    /** Closes a statement that failed or is no longer wanted. */
    public static void discard(Statement s) {
        try {
            s.ps.close();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("closing a read statement failed: {}", e.getMessage());
        }
    }

    /** Statements currently kept, over every connection. */
    int size() {
        int n = 0;
        for (Kept kept : byConnection.values()) {
            synchronized (kept) {
                n += kept.idle.size() + kept.idleScrollable.size();
            }
        }
        return n;
    }

    private void dropClosedConnections() {
        for (Iterator<Map.Entry<ConnectionIdentity, Kept>> it = byConnection.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<ConnectionIdentity, Kept> e = it.next();
            if (isClosed(e.getKey().connection())) {
                it.remove();
                synchronized (e.getValue()) {
                    e.getValue().discardAll();
                }
            }
        }
    }

    private static boolean isClosed(Connection c) {
        try {
            return c.isClosed();
        } catch (SQLException | RuntimeException e) {
            return true;
        }
    }

    /** Closes every kept statement (the backend is closing). */
    public void clear() {
        for (Kept kept : byConnection.values()) {
            synchronized (kept) {
                kept.discardAll();
            }
        }
        byConnection.clear();
    }
}
