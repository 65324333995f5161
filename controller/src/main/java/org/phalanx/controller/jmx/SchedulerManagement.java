package org.phalanx.controller.jmx;

import java.util.LinkedHashMap;
import java.util.Map;
import org.phalanx.requestmanager.RequestManager;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.api.BackendView;

/** The scheduler and load balancer MBean: strategies and load of one request manager. */
final class SchedulerManagement implements SchedulerMXBean {
    private final RequestManager rm;

    SchedulerManagement(RequestManager rm) {
        this.rm = rm;
    }

    private RequestManagerConfig config() {
        return rm.config();
    }

    @Override
    public String getReplication() {
        return config().replication().name();
    }

    @Override
    public String getWaitPolicy() {
        return config().waitPolicy().name();
    }

    @Override
    public String getBalancing() {
        return config().balancing().name();
    }

    @Override
    public String getLockGranularity() {
        return config().lockGranularity().name();
    }

    @Override
    public long getLastPosition() {
        return rm.lastPosition();
    }

    @Override
    public int getPendingRequests() {
        return rm.pendingRequests();
    }

    @Override
    public int getReadsWaitingForRoom() {
        return rm.readsWaitingForRoom();
    }

    @Override
    public int getSchemaChangesSettling() {
        return rm.schemaChangesSettling();
    }

    @Override
    public Map<String, Integer> getPendingPerBackend() {
        Map<String, Integer> pending = new LinkedHashMap<>();
        for (BackendView b : rm.backends()) {
            pending.put(b.name(), b.pending());
        }
        return pending;
    }

    @Override
    public int getOpenSessions() {
        return rm.openSessions();
    }

    @Override
    public int getOpenTransactions() {
        return rm.openTransactions();
    }
}
