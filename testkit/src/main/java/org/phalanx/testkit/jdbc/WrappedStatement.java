package org.phalanx.testkit.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * A real statement seen through its backend's {@link Fault} and {@link Capacity}: every call fails
 * while the backend is broken; an execution is counted, waits the injected delay, then runs
 * within the capacity, classified by its SQL (a batch by its first statement, once per entry).
 */
final class WrappedStatement implements InvocationHandler {
    private static final Set<String> EXECUTE = Set.of("execute", "executeQuery", "executeUpdate",
            "executeLargeUpdate", "executeBatch", "executeLargeBatch");

    private final Statement real;
    private final String preparedSql;
    private final Connection connection;
    private final BooleanSupplier aborted;
    private final Fault fault;
    private final Capacity capacity;
    private final boolean countRows;
    /** The SQL of the entries added to the batch; only an emulated capacity needs it. */
    private final List<String> batch;

    private WrappedStatement(Statement real, String preparedSql, Connection connection, BooleanSupplier aborted,
                             Fault fault, Capacity capacity, boolean countRows) {
        this.real = real;
        this.preparedSql = preparedSql;
        this.connection = connection;
        this.aborted = aborted;
        this.fault = fault;
        this.capacity = capacity;
        this.countRows = countRows;
        this.batch = capacity == Capacity.UNLIMITED ? null : new ArrayList<>();
    }

    static Statement wrap(Class<? extends Statement> type, Statement real, String preparedSql, Connection connection,
                          BooleanSupplier aborted, Fault fault, Capacity capacity, boolean countRows) {
        return (Statement) Proxy.newProxyInstance(WrappedStatement.class.getClassLoader(), new Class<?>[] {type},
                new WrappedStatement(real, preparedSql, connection, aborted, fault, capacity, countRows));
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
            case "toString", "close", "isClosed" -> {
                return Reflection.invoke(method, real, args);
            }
            default -> {
            }
        }
        fault.check();
        if (EXECUTE.contains(m)) {
            fault.beforeExecution(args != null && args.length > 0 && args[0] instanceof String s ? s : preparedSql, aborted);
            Object result = execute(m, method, args);
            return m.equals("executeQuery") ? results(result) : result;
        }
        switch (m) {
            case "getConnection" -> {
                return connection; // the wrapped one, as the caller got it
            }
            case "getResultSet" -> {
                return results(Reflection.invoke(method, real, args));
            }
            case "addBatch" -> {
                if (batch != null) {
                    synchronized (batch) {
                        batch.add(args != null && args.length == 1 && args[0] instanceof String s ? s : preparedSql);
                    }
                }
            }
            case "clearBatch" -> {
                if (batch != null) {
                    synchronized (batch) {
                        batch.clear();
                    }
                }
            }
            default -> {
            }
        }
        return Reflection.invoke(method, real, args);
    }

    private Object execute(String m, Method method, Object[] args) throws java.sql.SQLException {
        if (batch != null && (m.equals("executeBatch") || m.equals("executeLargeBatch"))) {
            String sql;
            int times;
            synchronized (batch) {
                sql = preparedSql != null ? preparedSql : (batch.isEmpty() ? "" : batch.get(0));
                times = Math.max(1, batch.size());
                batch.clear();
            }
            return capacity.execute(sql, times, () -> Reflection.invoke(method, real, args));
        }
        String sql = args != null && args.length > 0 && args[0] instanceof String s ? s : preparedSql;
        return capacity.execute(sql == null ? "" : sql, 1, () -> Reflection.invoke(method, real, args));
    }

    private Object results(Object result) {
        return countRows && result instanceof ResultSet rs ? CountedResultSet.wrap(rs, fault) : result;
    }
}
