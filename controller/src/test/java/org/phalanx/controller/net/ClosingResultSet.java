package org.phalanx.controller.net;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;

/** A ResultSet that runs an action when closed (to release the statement it came from). */
final class ClosingResultSet {
    private ClosingResultSet() {
    }

    interface Action {
        void run() throws Exception;
    }

    static ResultSet wrap(ResultSet rs, Action onClose) {
        return (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close") && method.getParameterCount() == 0) {
                        if (!rs.isClosed()) {
                            rs.close();
                            onClose.run();
                        }
                        return null;
                    }
                    try {
                        return method.invoke(rs, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
