package org.phalanx.driver;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The Phalanx JDBC driver: {@code jdbc:phalanx://host[:port][,host[:port]...]/vdbName[?key=value&...]}.
 * Hosts are tried in order at connect time; the first controller that answers wins.
 *
 * <p>Properties (URL parameters or Properties): user, password, connectTimeout (ms, default
 * 10000), socketTimeout (ms, 0 = none), fetchSize (default rows per batch, 0 = server default).
 * Every other property is passed to the controller in HELLO.
 */
public final class Driver implements java.sql.Driver {
    static final int MAJOR_VERSION = 0;
    static final int MINOR_VERSION = 1;
    static final String VERSION = "0.1.0";
    static final String NAME = "Phalanx JDBC Driver";

    static {
        try {
            DriverManager.registerDriver(new Driver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null; // JDBC: let DriverManager try the next driver
        }
        ConnectionUrl parsed = ConnectionUrl.parse(url, info);
        return new PhalanxConnection(ProtocolConnection.open(parsed, List.of()), parsed);
    }

    @Override
    public boolean acceptsURL(String url) {
        return ConnectionUrl.accepts(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        Properties merged = new Properties();
        if (info != null) {
            merged.putAll(info);
        }
        if (acceptsURL(url)) {
            merged.putAll(ConnectionUrl.parse(url, info).properties());
        }
        return new DriverPropertyInfo[] {
            property(merged, ConnectionUrl.USER, "user name on the virtual database", true),
            property(merged, ConnectionUrl.PASSWORD, "password", false),
            property(merged, ConnectionUrl.CONNECT_TIMEOUT,
                    "milliseconds to wait for each host when connecting (default "
                            + ConnectionUrl.DEFAULT_CONNECT_TIMEOUT_MS + ")", false),
            property(merged, ConnectionUrl.SOCKET_TIMEOUT, "milliseconds to wait for a reply; 0 waits forever", false),
            property(merged, ConnectionUrl.FETCH_SIZE, "default rows per batch for result sets; 0 = server default", false),
        };
    }

    private static DriverPropertyInfo property(Properties values, String name, String description, boolean required) {
        DriverPropertyInfo p = new DriverPropertyInfo(name, values.getProperty(name));
        p.description = description;
        p.required = required;
        return p;
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** Not JDBC compliant: no stored procedures, no updatable result sets, no savepoints. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw SqlExceptions.notSupported("java.util.logging (the driver does not log)");
    }
}
