package org.phalanx.requestmanager.backend;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.SqlState;

/**
 * A client session's own connection on one backend, opened outside the pools when the session
 * creates its first temporary table: the tables live there, so from then on every piece of the
 * session's work on that backend (reads, auto-commit writes, its transactions' branch) runs on it
 * ({@link Backend#connectionFor(String, SessionSettings)}), and closing it at the end of the
 * session drops them, as one database drops them with the connection.
 *
 * <p>One piece of work at a time holds it (a lease, given back by closing it): the session's
 * writes on this backend may still be running on its queue (the 'first' wait policy) when the
 * session's next statement arrives. A transaction's branch holds it until the transaction ends.
 *
 * <p>A transaction that has already joined every backend makes its branch on one of them the home
 * instead ({@link #adopt}): its pooled connection leaves the pool for the rest of the session, and
 * is dropped from it at the end (its temporary tables with it).
 */
public final class SessionHome implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(SessionHome.class);

    private final Backend backend;
    private final Connection connection;
    /** How the connection goes at the session's end: closed, or evicted from its pool. */
    private final Runnable discard;
    private final int isolation;
    private final long waitMillis;
    private final Semaphore free = new Semaphore(1, true);
    /** The parameters applied on the connection (changed under a lease only). */
    private SessionSettings applied = SessionSettings.NONE;

    private SessionHome(Backend backend, Connection connection, Runnable discard, long waitMillis) throws SQLException {
        this.backend = backend;
        this.connection = connection;
        this.discard = discard;
        this.isolation = connection.getMetaData().getDefaultTransactionIsolation();
        this.waitMillis = waitMillis;
    }

    /** Opens a session's home on {@code backend}; {@code waitMillis} bounds the wait for a lease. */
    public static SessionHome open(Backend backend, String virtualUser, long waitMillis) throws SQLException {
        Connection c = backend.sessionConnection(virtualUser);
        try {
            return new SessionHome(backend, c, () -> closeQuietly(backend, c), waitMillis);
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * A home on a pooled connection a transaction's branch holds, with {@code applied} on it: the
     * branch keeps it, leased ({@link #heldLease}) until the transaction ends.
     */
    static SessionHome adopt(Backend backend, Connection pooled, SessionSettings applied, Runnable evict,
                             long waitMillis) throws SQLException {
        SessionHome home = new SessionHome(backend, pooled, evict, waitMillis);
        home.applied = applied;
        home.free.acquireUninterruptibly(); // the branch's lease
        return home;
    }

    /** The lease of whoever holds the home now (the branch it was adopted from). */
    public Connection heldLease() {
        return handle();
    }

    public Backend backend() {
        return backend;
    }

    /** The connection with {@code settings} applied, held until the returned handle is closed. */
    Connection lease(SessionSettings settings) throws SQLException {
        try {
            if (!free.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
                throw new SQLTransientException("the session's own connection on backend " + backend.name()
                        + " stayed busy for " + waitMillis + " ms", SqlState.LOCK_NOT_AVAILABLE.code());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted waiting for the session's own connection", SqlState.QUERY_CANCELED.code(), e);
        }
        try {
            if (!settings.equals(applied)) {
                applied.switchTo(settings, connection, backend.engine());
                applied = settings;
            }
        } catch (SQLException | RuntimeException e) {
            free.release();
            throw e;
        }
        return handle();
    }

    /** A handle on the connection whose close gives the lease back. */
    private Connection handle() {
        boolean[] closed = new boolean[1];
        return (Connection) Proxy.newProxyInstance(SessionHome.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close":
                            synchronized (closed) {
                                if (!closed[0]) {
                                    closed[0] = true;
                                    giveBack();
                                }
                            }
                            return null;
                        case "isClosed":
                            synchronized (closed) {
                                if (closed[0]) {
                                    return true;
                                }
                            }
                            break;
                        case "equals":
                            return proxy == args[0];
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        default:
                            break;
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** As a pool would take it back: anything left uncommitted rolled back, auto-commit and level restored. */
    private void giveBack() {
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
            if (connection.getTransactionIsolation() != isolation) {
                connection.setTransactionIsolation(isolation);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debug("{}: restoring a session's own connection failed: {}", backend.name(), e.getMessage());
        } finally {
            free.release();
        }
    }

    /** Ends the session here: the connection closes, and its temporary tables with it. */
    @Override
    public void close() {
        discard.run();
    }

    private static void closeQuietly(Backend backend, Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("{}: closing a session's own connection failed: {}", backend.name(), e.getMessage());
        }
    }
}
