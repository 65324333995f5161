package org.phalanx.requestmanager.pipeline;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionHome;
import org.phalanx.requestmanager.backend.SessionSettings;

/**
 * A transaction's branch on one backend that takes its pooled connection only when first used,
 * which is when the backend's queue reaches the transaction's first statement there. A backend
 * running behind the others (the 'first' wait policy lets it) then holds connections only for the
 * transactions it is actually applying; opened at join time instead, every transaction already
 * finished elsewhere but still queued there would keep one, and a long enough lag would exhaust
 * its pool while the work that must run first waits for a connection. A branch never used
 * commits, rolls back and closes as a no-op.
 */
public final class LazyBranch implements InvocationHandler {
    private final Backend backend;
    private final String user;
    /** Null: the backend's own level. */
    private final Integer level;
    /** The session's settings when it joined; with the session's home once the branch is made it. */
    private SessionSettings settings;
    /** The branch's connection once opened. */
    private Connection connection;
    /**
     * The pooled connection as soon as it is taken, while it is still being set up: a thread stuck
     * there on a hung server must be freed by unwrapping it (see {@code Unstick}) without waiting
     * for the monitor the opening holds.
     */
    private volatile Connection taken;
    private boolean closed;

    private LazyBranch(Backend backend, String user, SessionSettings settings, Integer level) {
        this.backend = backend;
        this.user = user;
        this.settings = settings;
        this.level = level;
    }

    /**
     * A connection that opens (auto-commit off, at the backend's level for {@code isolation}) on its
     * first use. PostgreSQL and MariaDB branches run at READ COMMITTED whatever the client asked:
     * stronger levels are the controller's (its locks, see {@code ReadStage}), since a backend's
     * own snapshots and serialization checks depend on timing, which differs between replicas
     * (one would abort or see what another does not). Another controller is asked for the level
     * itself; SQLite is serializable anyway.
     */
    public static Connection of(Backend backend, String user, SessionSettings settings, int isolation) {
        Integer level = switch (backend.engine()) {
            case POSTGRESQL, MARIADB -> Connection.TRANSACTION_READ_COMMITTED;
            case PHALANX -> isolation;
            default -> null;
        };
        return (Connection) Proxy.newProxyInstance(LazyBranch.class.getClassLoader(), new Class<?>[] {Connection.class},
                new LazyBranch(backend, user, settings, level));
    }

    private Connection open() throws SQLException {
        Connection c = backend.branchConnection(user, settings);
        taken = c;
        try {
            c.setAutoCommit(false);
            if (level != null) {
                Integer current = backend.isolationWhenTaken(user, settings);
                if (current == null) {
                    current = c.getTransactionIsolation();
                    backend.isolationFound(user, settings, current);
                }
                if (current != level.intValue()) {
                    c.setTransactionIsolation(level);
                }
            }
            return c;
        } catch (SQLException | RuntimeException e) {
            taken = null;
            c.close();
            throw e;
        }
    }

    /**
     * Makes the session's home ({@link SessionHome}) on this branch's backend, for a transaction
     * that has joined every backend already: a branch not opened yet will open on a new home
     * connection; an open one's pooled connection becomes the home, which the branch holds until
     * the transaction ends, so what the transaction did there and what it does next share it.
     */
    public static SessionHome makeHome(Connection branch, long waitMillis) throws SQLException {
        LazyBranch b = (LazyBranch) Proxy.getInvocationHandler(branch);
        synchronized (b) {
            SessionHome home;
            if (b.connection == null) {
                home = SessionHome.open(b.backend, b.user, waitMillis);
            } else {
                home = b.backend.adoptAsHome(b.connection, waitMillis);
                b.connection = home.heldLease();
                b.taken = b.connection;
            }
            b.settings = b.settings.at(home);
            return home;
        }
    }

    /**
     * Only the opening holds this branch's monitor: the call itself runs outside it, and unwrapping
     * reaches a connection still being set up, so while a thread blocks on a hung server (in a call
     * or in the opening), the abort that frees it (which unwraps the connection) gets through.
     */
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        Connection c = taken;
        if (c != null && method.getName().equals("unwrap")) {
            return call(c, method, args);
        }
        synchronized (this) {
            if (connection == null) {
                switch (method.getName()) {
                    case "close":
                        closed = true;
                        return null;
                    case "isClosed":
                        return closed;
                    case "commit":
                    case "rollback":
                        if (args == null) {
                            return null; // nothing was done here
                        }
                        break;
                    case "equals":
                        return proxy == args[0];
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    case "toString":
                        return "unopened transaction branch";
                    default:
                        break;
                }
                if (closed) {
                    throw new SQLException("the transaction branch is closed", SqlState.CONNECTION_DOES_NOT_EXIST.code());
                }
                connection = open();
            }
            c = connection;
        }
        return call(c, method, args);
    }

    private static Object call(Connection c, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(c, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
