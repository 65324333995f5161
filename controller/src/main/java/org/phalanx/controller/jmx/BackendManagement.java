package org.phalanx.controller.jmx;

import java.sql.SQLException;
import org.phalanx.requestmanager.api.BackendView;
import org.phalanx.requestmanager.stats.BackendStatistics;

/** The backend MBean: reads the backend's state and counters; actions go through its virtual database's MBean. */
final class BackendManagement implements BackendMXBean {
    private final BackendView backend;
    private final VirtualDatabaseManagement vdb;

    BackendManagement(BackendView backend, VirtualDatabaseManagement vdb) {
        this.backend = backend;
        this.vdb = vdb;
    }

    @Override
    public String getName() {
        return backend.name();
    }

    @Override
    public String getVirtualDatabase() {
        return vdb.getName();
    }

    @Override
    public String getState() {
        return backend.state().name();
    }

    @Override
    public String getDisabledReason() {
        String reason = backend.disabledReason();
        return backend.isEnabled() || reason == null ? "" : reason;
    }

    @Override
    public String getEngine() {
        return backend.engine().name();
    }

    @Override
    public int getWeight() {
        return backend.weight();
    }

    @Override
    public int getMaxPending() {
        return backend.config().maxPending();
    }

    @Override
    public int getPendingRequests() {
        return backend.pending();
    }

    @Override
    public int getQueuedWrites() {
        return backend.queuedWrites();
    }

    @Override
    public long getStatementTimeLimitMillis() {
        return backend.config().limits().statementTimeLimit().toMillis();
    }

    private BackendStatistics.Snapshot statistics() {
        return backend.statistics().snapshot();
    }

    @Override
    public long getReads() {
        return statistics().reads();
    }

    @Override
    public long getWrites() {
        return statistics().writes();
    }

    @Override
    public long getErrors() {
        return statistics().errors();
    }

    @Override
    public long getTotalTimeMicros() {
        return statistics().totalNanos() / 1000;
    }

    @Override
    public long getMeanLatencyMicros() {
        return statistics().meanNanos() / 1000;
    }

    @Override
    public long getCheckpoint() throws SQLException {
        try {
            return vdb.virtualDatabase().checkpointOf(backend.name()).orElse(-1L);
        } catch (SQLException e) {
            throw VirtualDatabaseManagement.clean(e);
        }
    }

    @Override
    public void enable() throws SQLException {
        vdb.enableBackend(backend.name());
    }

    @Override
    public void disable() throws SQLException {
        vdb.disableBackend(backend.name());
    }
}
