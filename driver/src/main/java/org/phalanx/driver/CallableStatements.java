package org.phalanx.driver;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * {@code prepareCall} for what tools send through it without calling a procedure: plain SQL with
 * input parameters (Liquibase asks PostgreSQL for {@code select current_schema()} this way, and
 * without it took no schema for the default). Such a callable statement is the prepared statement
 * of that text; OUT parameters and the JDBC call escapes ({@code {call p(?)}}, {@code {? = call f(?)}})
 * are refused with 0A000, as before, since the controller runs no procedure call of its own.
 */
final class CallableStatements {
    private CallableStatements() {
    }

    static CallableStatement of(PhalanxConnection connection, String sql) throws SQLException {
        if (sql.stripLeading().startsWith("{")) {
            throw SqlExceptions.notSupported("a JDBC call escape ({call ...}: stored procedures)");
        }
        PreparedStatement prepared = connection.prepareStatement(sql);
        return (CallableStatement) Proxy.newProxyInstance(CallableStatements.class.getClassLoader(),
                new Class<?>[] {CallableStatement.class}, (proxy, method, args) -> invoke(proxy, prepared, method, args));
    }

    private static Object invoke(Object proxy, PreparedStatement prepared, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == CallableStatement.class) {
            // registerOutParameter, the getters of OUT parameters, and setters by parameter name
            throw SqlExceptions.notSupported("CallableStatement." + method.getName() + " (OUT or named parameters)");
        }
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "equals" -> args[0] == proxy;
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "callable " + prepared;
            };
        }
        try {
            return method.invoke(prepared, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
