package org.phalanx.testkit.disk;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A SQLite database that can fill up: connections from this data source work under SQLite's
 * {@code max_page_count}, so that once {@link #fill()} is called the file cannot grow and a write
 * needing a new page fails with SQLITE_FULL ("database or disk is full"), SQLite's own disk-full
 * path; {@link #free()} lets it grow again. The limit is applied on a connection's own thread,
 * before its next statement, also on connections opened earlier.
 */
public final class SqlitePageLimit implements DataSource {
    /** SQLite's default maximum. */
    private static final long NO_LIMIT = 1_073_741_823L;
    private static final Set<String> STATEMENT_METHODS = Set.of("createStatement", "prepareStatement", "prepareCall");

    private final String url;
    private final AtomicLong generation = new AtomicLong();
    private volatile long maxPages = NO_LIMIT;

    public SqlitePageLimit(String url) {
        this.url = url;
    }

    /** No room left: the file keeps its size (SQLite never lowers the limit below it). */
    public void fill() {
        maxPages = 1;
        generation.incrementAndGet();
    }

    /** Room again. */
    public void free() {
        maxPages = NO_LIMIT;
        generation.incrementAndGet();
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection real = DriverManager.getConnection(url);
        long[] applied = {-1};
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (STATEMENT_METHODS.contains(method.getName()) && applied[0] != generation.get()) {
                        applied[0] = generation.get();
                        try (Statement s = real.createStatement()) {
                            s.execute("PRAGMA max_page_count = " + maxPages);
                        }
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
    }

    @Override
    public void setLoginTimeout(int seconds) {
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return false;
    }

    @Override
    public String toString() {
        return url;
    }
}
