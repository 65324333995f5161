package org.phalanx.requestmanager.backend;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * A backend's pool had every connection in use and none came free in time: open streaming result
 * sets, transactions and running statements hold one each. Busy, not broken (it never disables the
 * backend: {@link BackendErrors#isPoolExhausted}); said with the backend's name and what to do,
 * under PostgreSQL's SQLState for too many connections, where HikariCP's message named its pool and
 * came without one.
 */
public final class PoolExhausted extends SQLTransientConnectionException {
    PoolExhausted(String backend, int poolSize, SQLException cause) {
        super("backend " + backend + ": all its " + poolSize + " pooled connections are in use (open result sets,"
                + " transactions and statements hold one each) and none came free in time; close result sets and"
                + " transactions sooner, or raise the backend's poolSize (" + cause.getMessage() + ")", "53300", cause);
    }
}
