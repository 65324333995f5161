package org.phalanx.requestmanager;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/** The per-virtual-database pipeline. (API stub; implementation in progress.) */
public final class RequestManager implements AutoCloseable {

    public RequestManager(String virtualDatabaseName, RequestManagerConfig config, List<BackendConfig> backends) {
        throw new UnsupportedOperationException("in progress");
    }

    /** Connects to every backend; those that answer are enabled, the others stay disabled (logged). */
    public void start() throws SQLException {
    }

    public Session openSession(String virtualUser) throws SQLException {
        return null;
    }

    /** Backend name to state, in configuration order. */
    public Map<String, BackendState> backendStates() {
        return Map.of();
    }

    /** Operator action: take a backend out of service. */
    public void disableBackend(String name) throws SQLException {
    }

    /** Stops accepting new requests, waits up to the timeout for those in flight, closes backends. */
    public void shutdown(java.time.Duration wait) {
    }

    @Override
    public void close() {
        shutdown(java.time.Duration.ZERO);
    }
}
