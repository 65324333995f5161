package org.phalanx.requestmanager.scheduler;

/** Total order within one controller: a counter behind a lock. */
public final class LocalWriteOrdering implements WriteOrdering {
    private long next = 1;

    @Override
    public synchronized void order(Delivery deliver) {
        deliver.deliver(next++);
    }
}
