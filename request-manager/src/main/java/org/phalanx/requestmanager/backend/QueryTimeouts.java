package org.phalanx.requestmanager.backend;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;

/**
 * A request's query timeout ({@code Statement.setQueryTimeout}) on every engine, and the one error
 * JDBC asks for when it passes. The PostgreSQL and MariaDB drivers enforce the timeout they are
 * given; sqlite-jdbc does not, so a SQLite statement is cancelled (sqlite3_interrupt) when its
 * timeout passes. Whatever the engine said then — PostgreSQL 57014, MariaDB 70100, SQLite's
 * SQLITE_INTERRUPT — the client gets {@link SQLTimeoutException} with SQLState HYT00.
 */
public final class QueryTimeouts {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "phalanx-query-timeouts");
        t.setDaemon(true);
        return t;
    });
    /** SQLITE_INTERRUPT, the low byte of sqlite-jdbc's error code. */
    private static final int SQLITE_INTERRUPT = 9;

    /** What ends a timeout's watch once the statement is done. */
    public interface Watch extends AutoCloseable {
        @Override
        void close();
    }

    private QueryTimeouts() {
    }

    /** Watches a statement about to run on {@code engine}: cancelled when its timeout passes if its driver would not. */
    public static Watch enforce(Engine engine, Statement s, int timeoutSeconds) {
        if (engine != Engine.SQLITE || timeoutSeconds <= 0) {
            return () -> { };
        }
        ScheduledFuture<?> cancel = TIMER.schedule(() -> {
            try {
                s.cancel();
            } catch (SQLException | RuntimeException e) {
                // the statement ended meanwhile
            }
        }, timeoutSeconds, TimeUnit.SECONDS);
        return () -> cancel.cancel(false);
    }

    /**
     * The error to give the client for a request with a query timeout: {@code e} itself, unless it
     * says the statement was cancelled or interrupted, which a timeout did.
     */
    public static SQLException asTimeout(SQLException e, int timeoutSeconds) {
        if (!expired(e, timeoutSeconds)) {
            return e;
        }
        return new SQLTimeoutException("the statement ran longer than its query timeout of " + timeoutSeconds
                + " s and was cancelled (" + e.getMessage() + ")", SqlState.TIMEOUT_EXPIRED.code(), e.getErrorCode(), e);
    }

    /** Whether {@code e} is a statement with that query timeout cancelled by it: not to be tried again. */
    public static boolean expired(SQLException e, int timeoutSeconds) {
        return timeoutSeconds > 0 && isCancellation(e);
    }

    private static boolean isCancellation(SQLException e) {
        String state = e.getSQLState();
        String message = e.getMessage() == null ? "" : e.getMessage();
        return e instanceof SQLTimeoutException || "57014".equals(state) || "70100".equals(state)
                || (e.getErrorCode() & 0xFF) == SQLITE_INTERRUPT && message.contains("SQLITE_INTERRUPT");
    }
}
