package org.phalanx.requestmanager.scheduler;

/**
 * The seam where writes, commits and rollbacks get their place in the total order. The local
 * implementation delivers at once; a replicated one (several controllers, JGroups/Raft) will
 * deliver once a majority holds the entry. The request manager executes in delivery order.
 */
public interface WriteOrdering {

    /**
     * Runs {@code deliver} with the next position in the total order. Deliveries happen one at
     * a time and in position order, so what {@code deliver} enqueues on the backends is queued
     * in that order everywhere.
     */
    void order(Delivery deliver);

    /** The last position delivered. */
    long lastPosition();

    @FunctionalInterface
    interface Delivery {
        void deliver(long position);
    }
}
