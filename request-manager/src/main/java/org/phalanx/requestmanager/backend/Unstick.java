package org.phalanx.requestmanager.backend;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Frees a thread blocked reading a backend's answer, by closing its connection's socket under it
 * (the thread then fails like on a lost connection). {@link Connection#abort} does that for
 * PostgreSQL's driver, but MariaDB Connector/J 3 first opens a second connection to send KILL and
 * waits for the server to answer: against a stopped server it blocks until the server resumes,
 * so for it the socket is closed directly (its client's {@code destroySocket}, reached by
 * reflection; if that fails, abort is tried anyway). Runs on threads of its own, since aborting
 * may itself block.
 */
final class Unstick {
    private static final Logger LOG = LogManager.getLogger(Unstick.class);
    private static final ExecutorService ABORTS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "phalanx-unstick");
        t.setDaemon(true);
        return t;
    });

    private Unstick() {
    }

    /** Frees a thread blocked on this (pooled) connection, on a thread of its own. */
    static void abort(Connection pooled) {
        ABORTS.execute(() -> {
            try {
                Connection real = pooled.unwrap(Connection.class);
                if (!destroyMariaDbSocket(real)) {
                    real.abort(ABORTS);
                }
            } catch (Exception | LinkageError e) {
                LOG.debug("could not abort a connection to a hung backend: {}", e.toString());
            }
        });
    }

    private static boolean destroyMariaDbSocket(Connection real) throws ReflectiveOperationException {
        if (!real.getClass().getName().equals("org.mariadb.jdbc.Connection")) {
            return false;
        }
        Object client = real.getClass().getMethod("getClient").invoke(real);
        for (Class<?> c = client.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Method destroy = c.getDeclaredMethod("destroySocket");
                destroy.setAccessible(true);
                destroy.invoke(client);
                return true;
            } catch (NoSuchMethodException e) {
                // declared higher up
            }
        }
        return false;
    }
}
