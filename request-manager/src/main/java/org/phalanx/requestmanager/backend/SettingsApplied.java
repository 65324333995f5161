package org.phalanx.requestmanager.backend;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;

/** A pooled connection carrying a session's settings: closing it runs {@code putBack} once instead. */
final class SettingsApplied {
    private SettingsApplied() {
    }

    static Connection wrap(Connection pooled, Runnable putBack) {
        boolean[] closed = new boolean[1];
        return (Connection) Proxy.newProxyInstance(SettingsApplied.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close":
                            synchronized (closed) {
                                if (!closed[0]) {
                                    closed[0] = true;
                                    putBack.run();
                                }
                            }
                            return null;
                        case "isClosed":
                            synchronized (closed) {
                                if (closed[0]) {
                                    return true;
                                }
                            }
                            break;
                        case "equals":
                            return proxy == args[0];
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        default:
                            break;
                    }
                    try {
                        return method.invoke(pooled, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
