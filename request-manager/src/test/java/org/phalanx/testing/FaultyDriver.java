package org.phalanx.testing;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Test-only JDBC driver that wraps a real one and injects faults into a named backend:
 * {@code jdbc:faulty:NAME:REAL_URL}. {@link #fault(String)} controls a delay before each
 * statement execution and a "broken" switch that makes every call on its connections and
 * statements fail like a dead connection (results already returned keep their rows).
 * The data still lives in the real database (e.g. a SQLite file).
 */
public final class FaultyDriver implements java.sql.Driver {
    private static final String PREFIX = "jdbc:faulty:";
    private static final Map<String, Fault> FAULTS = new ConcurrentHashMap<>();
    private static final Set<String> EXECUTE = Set.of("execute", "executeQuery", "executeUpdate",
            "executeLargeUpdate", "executeBatch", "executeLargeBatch");

    static {
        try {
            DriverManager.registerDriver(new FaultyDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Knobs of one named backend. */
    public static final class Fault {
        public volatile long delayMillis;
        public volatile boolean broken;
        /** Statement executions that reached the real driver. */
        public final java.util.concurrent.atomic.AtomicLong executions = new java.util.concurrent.atomic.AtomicLong();
        /** ResultSet.next() calls on this backend's results: shows how far a result was read. */
        public final java.util.concurrent.atomic.AtomicLong rowsRead = new java.util.concurrent.atomic.AtomicLong();
    }

    /**
     * The knobs of a backend. In a process of its own (a controller started by a test), the delay
     * starts from the system property {@code faulty.NAME.delayMillis}.
     */
    public static Fault fault(String name) {
        return FAULTS.computeIfAbsent(name, k -> {
            Fault f = new Fault();
            f.delayMillis = Long.getLong("faulty." + k + ".delayMillis", 0);
            return f;
        });
    }

    public static String url(String name, String realUrl) {
        return PREFIX + name + ":" + realUrl;
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        String rest = url.substring(PREFIX.length());
        int colon = rest.indexOf(':');
        String name = rest.substring(0, colon);
        Fault fault = fault(name);
        check(fault);
        Connection real = DriverManager.getConnection(rest.substring(colon + 1), info);
        return wrap(Connection.class, real, fault);
    }

    private static void check(Fault fault) throws SQLException {
        if (fault.broken) {
            throw new SQLNonTransientConnectionException("injected fault: connection broken", "08006");
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T wrap(Class<T> type, T real, Fault fault) {
        InvocationHandler h = (proxy, method, args) -> {
            String name = method.getName();
            if (name.equals("isValid") && fault.broken) {
                return false;
            }
            // a result already returned holds its rows, as drivers that fetch whole results (sqlite-jdbc,
            // pgjdbc without a fetch size) do: a connection breaking afterwards fails the next call on
            // the connection or a statement, not the reading of rows already received
            boolean received = proxy instanceof java.sql.ResultSet;
            if (!received && !name.equals("close") && !name.equals("isClosed") && !name.equals("abort")) {
                check(fault);
            }
            if (name.equals("next") && proxy instanceof java.sql.ResultSet) {
                fault.rowsRead.incrementAndGet();
            }
            if (EXECUTE.contains(name)) {
                fault.executions.incrementAndGet();
                if (fault.delayMillis > 0) {
                    Thread.sleep(fault.delayMillis);
                }
            }
            Object result;
            try {
                result = method.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (result instanceof java.sql.PreparedStatement ps && method.getReturnType() == java.sql.PreparedStatement.class) {
                return wrap(java.sql.PreparedStatement.class, ps, fault);
            }
            if (result instanceof java.sql.Statement s && method.getReturnType() == java.sql.Statement.class) {
                return wrap(java.sql.Statement.class, s, fault);
            }
            if (result instanceof java.sql.ResultSet rs && method.getReturnType() == java.sql.ResultSet.class
                    && (name.equals("executeQuery") || name.equals("getResultSet"))) {
                return wrap(java.sql.ResultSet.class, rs, fault);
            }
            return result;
        };
        return (T) Proxy.newProxyInstance(FaultyDriver.class.getClassLoader(), new Class<?>[] {type}, h);
    }

    @Override
    public boolean acceptsURL(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return new DriverPropertyInfo[0];
    }

    @Override
    public int getMajorVersion() {
        return 1;
    }

    @Override
    public int getMinorVersion() {
        return 0;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }
}
