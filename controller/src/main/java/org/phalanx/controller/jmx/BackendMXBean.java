package org.phalanx.controller.jmx;

import java.sql.SQLException;

/** One backend of a virtual database. */
public interface BackendMXBean {
    String getName();

    String getVirtualDatabase();

    /** ENABLED, DISABLED, REPLAYING or RESTORING. */
    String getState();

    /** Why it is out of service (empty when enabled). */
    String getDisabledReason();

    /** SQLITE, POSTGRESQL, MARIADB... */
    String getEngine();

    int getWeight();

    /** Requests in progress beyond which auto-commit reads wait at the controller (0: no limit). */
    int getMaxPending();

    /** Requests in progress here (queued writes included). */
    int getPendingRequests();

    /** Writes, commits and rollbacks queued or running here; past maxQueuedWrites the backend is disabled. */
    int getQueuedWrites();

    /** How long a statement may run here before the backend must prove it is alive (0: never checked). */
    long getStatementTimeLimitMillis();

    long getReads();

    /** Writes, commits and rollbacks applied here. */
    long getWrites();

    long getErrors();

    /** Execution time of every read and write here, summed; divide its growth by the requests' for recent latency. */
    long getTotalTimeMicros();

    /** Mean execution time since the controller started. */
    long getMeanLatencyMicros();

    /** Position of the checkpoint it will be replayed from, or -1 when it has none. */
    long getCheckpoint() throws SQLException;

    void enable() throws SQLException;

    void disable() throws SQLException;
}
