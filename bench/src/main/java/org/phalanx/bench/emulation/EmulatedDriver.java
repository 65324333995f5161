package org.phalanx.bench.emulation;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.logging.Logger;

/**
 * <b>Emulated-capacity backends</b> (benchmark use only): a JDBC driver that wraps a real one and
 * makes each backend behave, as far as capacity goes, like a remote database server with K
 * execution slots and a service time per statement class ({@link EmulatedServer},
 * {@link CostModel}). It lets a 2-core machine show how Phalanx scales over 8 "servers": the
 * real database (a SQLite or H2 file) still executes every statement, so results stay correct;
 * only the time a statement occupies its server is emulated.
 *
 * <p>URL: {@code jdbc:emulated:name=NAME;slots=K;costs=/path/model.costs:REAL_URL}, e.g.
 * {@code jdbc:emulated:name=b1;slots=2;costs=/tmp/reads.costs:jdbc:sqlite:/tmp/b1.db}. The options
 * end at the first ':'. {@code name} identifies the emulated server (every connection pool of the
 * backend shares its slots), {@code slots} defaults to 1, {@code costs} (a {@link CostModel}
 * file) defaults to no service time. {@code init=/path/script.sql} is for in-memory H2 databases
 * ({@code jdbc:h2:mem:...;DB_CLOSE_DELAY=-1}): the script (made with H2's {@code SCRIPT TO}) is
 * run with {@code RUNSCRIPT} once, before the server's first connection is handed out.
 *
 * <p>Phalanx picks its lock granularity from the URL: an emulated SQLite URL still contains
 * {@code :sqlite:}, so {@code lockGranularity="auto"} locks the whole database, as SQLite needs.
 * Over an engine with row locks (H2 here) set {@code lockGranularity="table"} in the virtual
 * database file, as for PostgreSQL.
 */
public final class EmulatedDriver implements java.sql.Driver {
    public static final String PREFIX = "jdbc:emulated:";
    private static final Set<String> EXECUTE = Set.of("execute", "executeQuery", "executeUpdate",
            "executeLargeUpdate", "executeBatch", "executeLargeBatch");

    static {
        try {
            DriverManager.registerDriver(new EmulatedDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The URL of an emulated backend. */
    public static String url(String name, int slots, Path costs, Path init, String realUrl) {
        return PREFIX + "name=" + name + ";slots=" + slots + (costs == null ? "" : ";costs=" + costs.toAbsolutePath())
                + (init == null ? "" : ";init=" + init.toAbsolutePath()) + ":" + realUrl;
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        String rest = url.substring(PREFIX.length());
        int colon = rest.indexOf(':');
        if (colon < 0) {
            throw new SQLException("bad emulated URL (no real URL after the options): " + url, "08001");
        }
        Map<String, String> options = new HashMap<>();
        for (String kv : rest.substring(0, colon).split(";")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                options.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
        }
        String realUrl = rest.substring(colon + 1);
        String name = options.getOrDefault("name", realUrl);
        int slots;
        CostModel costs;
        try {
            slots = Integer.parseInt(options.getOrDefault("slots", "1"));
            costs = options.containsKey("costs") ? CostModel.load(Path.of(options.get("costs"))) : CostModel.zero();
        } catch (IllegalArgumentException e) {
            throw new SQLException("bad emulated URL " + url + ": " + e.getMessage(), "08001", e);
        }
        if (slots < 1) {
            throw new SQLException("bad emulated URL " + url + ": slots must be at least 1", "08001");
        }
        EmulatedServer server = EmulatedServer.named(name, slots, costs);
        String init = options.get("init");
        if (init != null) {
            server.initialiseOnce(() -> {
                try (Connection c = DriverManager.getConnection(realUrl, info); Statement s = c.createStatement()) {
                    s.execute("RUNSCRIPT FROM '" + init.replace("'", "''") + "'");
                }
                return null;
            });
        }
        Connection real = DriverManager.getConnection(realUrl, info);
        return connection(real, server);
    }

    private static Connection connection(Connection real, EmulatedServer server) {
        Connection[] self = new Connection[1];
        InvocationHandler h = (proxy, method, args) -> {
            String m = method.getName();
            switch (m) {
                case "prepareStatement", "prepareCall" -> {
                    // preparing is the engine's work too (H2 and SQLite parse and plan here)
                    Statement s = (Statement) server.outsideSlot(() -> invoke(method, real, args));
                    Class<? extends Statement> type = m.equals("prepareCall") ? CallableStatement.class : PreparedStatement.class;
                    return statement(type, s, (String) args[0], server, self[0]);
                }
                case "createStatement" -> {
                    return statement(Statement.class, (Statement) invoke(method, real, args), null, server, self[0]);
                }
                case "commit" -> {
                    return server.execute(server.costs().classify(CostModel.COMMIT), 1, () -> invoke(method, real, args));
                }
                case "rollback" -> {
                    if (args == null || args.length == 0) {
                        return server.execute(server.costs().classify(CostModel.ROLLBACK), 1, () -> invoke(method, real, args));
                    }
                    return invoke(method, real, args);
                }
                case "toString" -> {
                    return "emulated[" + server.name() + "] " + real;
                }
                case "equals" -> {
                    return proxy == args[0];
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                default -> {
                    return invoke(method, real, args);
                }
            }
        };
        self[0] = (Connection) Proxy.newProxyInstance(EmulatedDriver.class.getClassLoader(),
                new Class<?>[] {Connection.class}, h);
        return self[0];
    }

    private static Statement statement(Class<? extends Statement> type, Statement real, String preparedSql,
                                       EmulatedServer server, Connection connection) {
        List<String> batch = new ArrayList<>();
        InvocationHandler h = (proxy, method, args) -> {
            String m = method.getName();
            if (EXECUTE.contains(m)) {
                if (m.equals("executeBatch") || m.equals("executeLargeBatch")) {
                    String sql = preparedSql != null ? preparedSql : (batch.isEmpty() ? "" : batch.get(0));
                    int times;
                    synchronized (batch) {
                        times = Math.max(1, batch.size());
                        batch.clear();
                    }
                    return server.execute(server.costs().classify(sql), times, () -> invoke(method, real, args));
                }
                String sql = args != null && args.length > 0 && args[0] instanceof String s ? s : preparedSql;
                return server.execute(server.costs().classify(sql == null ? "" : sql), 1, () -> invoke(method, real, args));
            }
            switch (m) {
                case "addBatch" -> {
                    synchronized (batch) {
                        batch.add(args != null && args.length == 1 && args[0] instanceof String s ? s : preparedSql);
                    }
                }
                case "clearBatch" -> {
                    synchronized (batch) {
                        batch.clear();
                    }
                }
                case "getConnection" -> {
                    return connection;
                }
                case "equals" -> {
                    return proxy == args[0];
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                default -> {
                }
            }
            return invoke(method, real, args);
        };
        return (Statement) Proxy.newProxyInstance(EmulatedDriver.class.getClassLoader(), new Class<?>[] {type}, h);
    }

    /** Calls the real object, rethrowing what it threw rather than a reflection wrapper. */
    private static Object invoke(Method method, Object target, Object[] args) throws SQLException {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException s) {
                throw s;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new SQLException(cause);
        } catch (IllegalAccessException e) {
            throw new SQLException(e);
        }
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
