package org.phalanx.driver;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.phalanx.protocol.Protocol;

/**
 * A DataSource for containers and pools configured by bean properties. Either set {@code url},
 * or {@code serverName} (one host, or several separated by commas, each optionally with
 * {@code :port}), {@code portNumber} and {@code databaseName} (the virtual database).
 */
public class PhalanxDataSource implements DataSource {
    private String url;
    private String serverName = "localhost";
    private int portNumber = Protocol.DEFAULT_PORT;
    private String databaseName;
    private String user;
    private String password;
    private int loginTimeout;
    private PrintWriter logWriter;

    public String getUrl() {
        return url != null ? url : buildUrl();
    }

    /** A full jdbc:phalanx: URL; when set it takes precedence over serverName/portNumber/databaseName. */
    public void setUrl(String url) {
        this.url = url;
    }

    public String getServerName() {
        return serverName;
    }

    public void setServerName(String serverName) {
        this.serverName = serverName;
    }

    public int getPortNumber() {
        return portNumber;
    }

    public void setPortNumber(int portNumber) {
        this.portNumber = portNumber;
    }

    public String getDatabaseName() {
        return databaseName;
    }

    public void setDatabaseName(String databaseName) {
        this.databaseName = databaseName;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    private String buildUrl() {
        StringBuilder b = new StringBuilder(ConnectionUrl.PREFIX).append("//");
        String[] hosts = (serverName == null ? "localhost" : serverName).split(",");
        for (int i = 0; i < hosts.length; i++) {
            String h = hosts[i].trim();
            b.append(i > 0 ? "," : "").append(h);
            boolean hasPort = h.startsWith("[") ? h.contains("]:") : h.contains(":");
            if (!hasPort) {
                b.append(':').append(portNumber);
            }
        }
        return b.append('/').append(databaseName == null ? "" : databaseName).toString();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return getConnection(user, password);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        Properties info = new Properties();
        if (username != null) {
            info.setProperty(ConnectionUrl.USER, username);
        }
        if (password != null) {
            info.setProperty(ConnectionUrl.PASSWORD, password);
        }
        if (loginTimeout > 0) {
            info.setProperty(ConnectionUrl.CONNECT_TIMEOUT, Integer.toString(loginTimeout * 1000));
        }
        String target = getUrl();
        if (!ConnectionUrl.accepts(target)) {
            // Parse anyway for the precise message.
            ConnectionUrl.parse(target, info);
        }
        return new Driver().connect(target, info);
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw SqlExceptions.notSupported("java.util.logging (the driver does not log)");
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
