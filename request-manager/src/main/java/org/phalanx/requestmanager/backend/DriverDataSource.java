package org.phalanx.requestmanager.backend;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.phalanx.engine.SqlState;

/** The pool's connection source for a driver loaded from a jar (DriverManager would not hand it out). */
final class DriverDataSource implements DataSource {
    private final Driver driver;
    private final String url;
    private final Properties properties;
    /**
     * Set by HikariCP from its connection timeout. Its pool waits this long, on close, for a
     * connection it is still opening in the background; at 0 it would not wait, and that connection,
     * opened after the pool closed, would stay open (for SQLite, its file held, or created again
     * after its folder was removed).
     */
    private volatile int loginTimeoutSeconds;

    DriverDataSource(Driver driver, String url, Properties properties) {
        this.driver = driver;
        this.url = url;
        this.properties = properties;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return connect(properties);
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        Properties p = new Properties();
        p.putAll(properties);
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        return connect(p);
    }

    private Connection connect(Properties p) throws SQLException {
        Connection c = driver.connect(url, p);
        if (c == null) {
            throw new SQLException("the driver " + driver.getClass().getName() + " does not accept " + url,
                    SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION.code());
        }
        return c;
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
        loginTimeoutSeconds = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeoutSeconds;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
