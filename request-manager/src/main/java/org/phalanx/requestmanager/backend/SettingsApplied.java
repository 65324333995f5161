package org.phalanx.requestmanager.backend;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Consumer;
import org.phalanx.engine.Engine;

/**
 * A pooled connection carrying a session's settings: closing it runs {@code putBack} once instead,
 * with the settings it carries then. Those are the ones it was taken with, or the ones
 * {@link #switchTo} put on it since (a transaction's branch when its session sets a parameter), so
 * whatever was applied is what gets reset.
 */
final class SettingsApplied implements InvocationHandler {
    private final Connection pooled;
    private final Consumer<SessionSettings> putBack;
    /** Drops the connection from its pool (closed for good). */
    private final Runnable evict;
    private SessionSettings applied;
    private boolean closed;

    private SettingsApplied(Connection pooled, SessionSettings applied, Consumer<SessionSettings> putBack, Runnable evict) {
        this.pooled = pooled;
        this.applied = applied;
        this.putBack = putBack;
        this.evict = evict;
    }

    static Connection wrap(Connection pooled, SessionSettings applied, Consumer<SessionSettings> putBack, Runnable evict) {
        return (Connection) Proxy.newProxyInstance(SettingsApplied.class.getClassLoader(), new Class<?>[] {Connection.class},
                new SettingsApplied(pooled, applied, putBack, evict));
    }

    /**
     * The connection becomes a session's home ({@link SessionHome#adopt}): this handle no longer
     * gives it back to the pool; the home evicts it at the session's end.
     */
    static SessionHome adopt(Connection c, Backend backend, long waitMillis) throws SQLException {
        if (!c.isWrapperFor(SettingsApplied.class)) {
            throw new SQLException("not a transaction branch's pooled connection: " + c);
        }
        SettingsApplied carrier = c.unwrap(SettingsApplied.class);
        synchronized (carrier) {
            carrier.closed = true; // its close no longer puts it back
            return SessionHome.adopt(backend, carrier.pooled, carrier.applied, carrier.evict, waitMillis);
        }
    }

    /**
     * Replaces the settings on {@code c}, which has {@code from} applied, by {@code next}; remembered
     * for the reset when {@code c} (or the connection behind it) is one of these.
     */
    static void switchTo(Connection c, SessionSettings from, SessionSettings next, Engine engine) throws SQLException {
        if (c.isWrapperFor(SettingsApplied.class)) {
            SettingsApplied carrier = c.unwrap(SettingsApplied.class);
            synchronized (carrier) {
                carrier.applied.switchTo(next, carrier.pooled, engine);
                carrier.applied = next;
            }
            return;
        }
        from.switchTo(next, c, engine);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "close":
                SessionSettings toReset;
                synchronized (this) {
                    if (closed) {
                        return null;
                    }
                    closed = true;
                    toReset = applied;
                }
                putBack.accept(toReset);
                return null;
            case "isClosed":
                synchronized (this) {
                    if (closed) {
                        return true;
                    }
                }
                break;
            case "isWrapperFor":
                if (args[0] == SettingsApplied.class) {
                    return true;
                }
                break;
            case "unwrap":
                if (args[0] == SettingsApplied.class) {
                    return this;
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
    }
}
