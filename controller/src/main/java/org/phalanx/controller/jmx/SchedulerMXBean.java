package org.phalanx.controller.jmx;

import java.util.Map;

/** The scheduler and load balancer of a virtual database: its strategies and its load. */
public interface SchedulerMXBean {
    String getReplication();

    String getWaitPolicy();

    String getBalancing();

    String getLockGranularity();

    /** The last position given in the total order of writes. */
    long getLastPosition();

    int getPendingRequests();

    /** Auto-commit reads waiting at the controller for a backend under its maxPending. */
    int getReadsWaitingForRoom();

    /** Schema changes (DDL) not yet run on every backend: DDL of any table, plus the tables of the others. */
    int getSchemaChangesSettling();

    /** Requests in progress per backend. */
    Map<String, Integer> getPendingPerBackend();

    int getOpenSessions();

    int getOpenTransactions();
}
