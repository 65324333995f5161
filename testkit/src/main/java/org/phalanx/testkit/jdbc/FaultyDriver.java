package org.phalanx.testkit.jdbc;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * A JDBC driver that wraps a real one, for tests and benchmarks: the data still lives in the real
 * database (a SQLite file, an H2 database...), while each named backend can be made to misbehave
 * or to behave like a remote server of limited capacity.
 *
 * <ul>
 *   <li>{@code jdbc:faulty:NAME:REAL_URL}: fault injection. {@link #fault(String)} holds the
 *       backend's knobs: a delay before each statement execution, and a "broken" switch that makes
 *       every call on its connections and statements fail like a dead connection (results already
 *       returned keep their rows); and counters of executions and rows read.</li>
 *   <li>{@code jdbc:faulty:name=NAME;slots=K;costs=FILE:REAL_URL}: the same, plus emulated capacity
 *       ({@link EmulatedServer}): K execution slots shared by every connection of the backend in this
 *       JVM, and a service time per statement class from a {@link CostModel} file ({@code costs}
 *       alone means 1 slot, {@code slots} alone no service time). {@code init=FILE} loads an in-memory
 *       H2 database from a script once ({@link InitScripts}). Result sets are not wrapped here (no
 *       row counts): the benchmarks read many rows, and a proxy per call would show in their figures.</li>
 * </ul>
 *
 * <p>Phalanx picks its lock granularity from the URL: a wrapped SQLite URL still contains
 * {@code :sqlite:}, so {@code lockGranularity="auto"} locks the whole database, as SQLite needs.
 * Registered with {@link DriverManager} when loaded (and through {@code META-INF/services}).
 */
public final class FaultyDriver implements java.sql.Driver {
    private static final Map<String, Fault> FAULTS = new ConcurrentHashMap<>();

    static {
        try {
            DriverManager.registerDriver(new FaultyDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The knobs of a backend. In a process of its own (a controller started by a test), the delay
     * starts from the system property {@code faulty.NAME.delayMillis}.
     */
    public static Fault fault(String name) {
        return FAULTS.computeIfAbsent(name, k -> {
            Fault f = new Fault(k);
            f.delayMillis = Long.getLong("faulty." + k + ".delayMillis", 0);
            return f;
        });
    }

    /** The URL of a backend with injectable faults over {@code realUrl}. */
    public static String url(String name, String realUrl) {
        return new FaultyUrl(name, 0, null, null, realUrl).toString();
    }

    /**
     * The URL of a backend emulating a server with {@code slots} execution slots and the service
     * times of the cost model file {@code costs} (null: none); {@code init} (null: none) is a
     * script loading an in-memory H2 database once.
     */
    public static String url(String name, int slots, Path costs, Path init, String realUrl) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be at least 1: " + slots);
        }
        return new FaultyUrl(name, slots, costs, init, realUrl).toString();
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        FaultyUrl u = FaultyUrl.parse(url);
        Fault fault = fault(u.name());
        fault.check();
        try {
            fault.awaitResumed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted connecting to a hung backend", "08001", e);
        }
        Capacity capacity = Capacity.UNLIMITED;
        if (u.emulatesCapacity()) {
            CostModel costs;
            try {
                costs = u.costs() == null ? CostModel.zero() : CostModel.load(u.costs());
            } catch (IllegalArgumentException e) {
                throw new SQLException("bad faulty URL " + url + ": " + e.getMessage(), "08001", e);
            }
            capacity = EmulatedServer.named(u.name(), u.slots(), costs);
        }
        InitScripts.runOnce(u, info);
        Connection real = DriverManager.getConnection(u.realUrl(), info);
        return WrappedConnection.wrap(real, fault, capacity, !u.emulatesCapacity());
    }

    @Override
    public boolean acceptsURL(String url) {
        return FaultyUrl.accepts(url);
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
