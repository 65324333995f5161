package org.phalanx.testkit.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;

/**
 * A real result counting its {@code next()} calls into {@link Fault#rowsRead}. It never fails for
 * a broken backend: a result already returned holds its rows, as drivers that fetch whole results
 * (sqlite-jdbc, pgjdbc without a fetch size) do, so a connection breaking afterwards fails the
 * next call on the connection or a statement, not the reading of rows already received.
 */
final class CountedResultSet implements InvocationHandler {
    private final ResultSet real;
    private final Fault fault;

    private CountedResultSet(ResultSet real, Fault fault) {
        this.real = real;
        this.fault = fault;
    }

    static ResultSet wrap(ResultSet real, Fault fault) {
        return (ResultSet) Proxy.newProxyInstance(CountedResultSet.class.getClassLoader(),
                new Class<?>[] {ResultSet.class}, new CountedResultSet(real, fault));
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
        if (method.getName().equals("next")) {
            fault.rowsRead.incrementAndGet();
        }
        return Reflection.invoke(method, real, args);
    }
}
