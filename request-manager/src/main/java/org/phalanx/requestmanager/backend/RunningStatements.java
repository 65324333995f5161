package org.phalanx.requestmanager.backend;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What runs on one backend right now, and since when: the hang detector looks for statements past
 * the backend's time limit, and a backend is not put back in service while work from before it
 * left still runs there (it could commit behind the replay's back).
 */
public final class RunningStatements {
    private final Set<Running> running = ConcurrentHashMap.newKeySet();

    /** One statement in progress; closing it says it has ended. */
    public final class Running implements AutoCloseable {
        final long startNanos = System.nanoTime();
        final String what;
        /** The connection whose thread waits for the backend's answer, or null when the work cannot be cut short. */
        private final java.sql.Connection connection;

        private Running(String what, java.sql.Connection connection) {
            this.what = what;
            this.connection = connection;
        }

        boolean stillRunning() {
            return running.contains(this);
        }

        @Override
        public void close() {
            running.remove(this);
        }
    }

    /** Records work starting now that cannot be cut short (its thread stays until the backend answers). */
    public Running start(String what) {
        return startOn(null, what);
    }

    /** Records a statement starting now on this connection, which is aborted if the backend hangs. */
    public Running startOn(java.sql.Connection c, String what) {
        Running r = new Running(what, c);
        running.add(r);
        return r;
    }

    /** How many are in progress. */
    public int count() {
        return running.size();
    }

    /** The one that started first, or null if none runs. */
    public Running oldest() {
        Running oldest = null;
        for (Running r : running) {
            if (oldest == null || r.startNanos - oldest.startNanos < 0) {
                oldest = r;
            }
        }
        return oldest;
    }

    /** Frees every thread still waiting for the backend (it left service: no answer is awaited). */
    void unstickAll() {
        for (Running r : running) {
            if (r.connection != null) {
                Unstick.abort(r.connection);
            }
        }
    }
}
