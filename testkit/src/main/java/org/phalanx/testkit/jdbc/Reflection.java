package org.phalanx.testkit.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.SQLException;

/** Calls on the real JDBC objects behind the proxies. */
final class Reflection {
    private Reflection() {
    }

    /** Calls the real object, rethrowing what it threw rather than a reflection wrapper. */
    static Object invoke(Method method, Object target, Object[] args) throws SQLException {
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
}
