package org.phalanx.testkit.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;

/**
 * A real connection seen through a backend's {@link Fault} and {@link Capacity}: every call fails
 * while the backend is broken; statements are wrapped too; commit and rollback take the capacity.
 */
final class WrappedConnection implements InvocationHandler {
    private final Connection real;
    private final Fault fault;
    private final Capacity capacity;
    private final boolean countRows;
    private Connection proxy;
    /** Set by {@code abort}: calls waiting on a hung backend then fail, as on a closed socket. */
    private volatile boolean aborted;

    private WrappedConnection(Connection real, Fault fault, Capacity capacity, boolean countRows) {
        this.real = real;
        this.fault = fault;
        this.capacity = capacity;
        this.countRows = countRows;
    }

    /** @param countRows wrap result sets to count the rows read ({@link Fault#rowsRead}) */
    static Connection wrap(Connection real, Fault fault, Capacity capacity, boolean countRows) {
        WrappedConnection h = new WrappedConnection(real, fault, capacity, countRows);
        h.proxy = (Connection) Proxy.newProxyInstance(WrappedConnection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, h);
        return h.proxy;
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
        String m = method.getName();
        switch (m) {
            case "equals" -> {
                return self == args[0];
            }
            case "hashCode" -> {
                return System.identityHashCode(self);
            }
            case "toString" -> {
                return "faulty[" + fault.name + "] " + real;
            }
            case "abort" -> {
                aborted = true;
                fault.wakeWaiters();
                return Reflection.invoke(method, real, args);
            }
            case "close", "isClosed" -> {
                // a broken connection can still be closed, as a dead socket can
                return Reflection.invoke(method, real, args);
            }
            case "isValid" -> {
                if (fault.broken) {
                    return false;
                }
            }
            default -> {
            }
        }
        fault.check();
        if (m.equals("commit") || m.equals("rollback") || m.equals("isValid")) {
            fault.awaitResumed(() -> aborted); // a stopped server answers none of these
        }
        switch (m) {
            case "createStatement" -> {
                return statement(Statement.class, (Statement) Reflection.invoke(method, real, args), null);
            }
            case "prepareStatement", "prepareCall" -> {
                // preparing is the engine's work too (H2 and SQLite parse and plan here)
                Statement s = capacity.prepare(() -> (Statement) Reflection.invoke(method, real, args));
                return statement(m.equals("prepareCall") ? CallableStatement.class : PreparedStatement.class, s,
                        (String) args[0]);
            }
            case "commit" -> {
                return capacity.execute(CostModel.COMMIT, 1, () -> Reflection.invoke(method, real, args));
            }
            case "rollback" -> {
                if (args == null || args.length == 0) {
                    return capacity.execute(CostModel.ROLLBACK, 1, () -> Reflection.invoke(method, real, args));
                }
                return Reflection.invoke(method, real, args); // to a savepoint: not a transaction's end
            }
            default -> {
                return Reflection.invoke(method, real, args);
            }
        }
    }

    private Statement statement(Class<? extends Statement> type, Statement s, String preparedSql) {
        return WrappedStatement.wrap(type, s, preparedSql, proxy, () -> aborted, fault, capacity, countRows);
    }
}
