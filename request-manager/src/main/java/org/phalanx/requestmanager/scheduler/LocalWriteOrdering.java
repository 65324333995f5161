package org.phalanx.requestmanager.scheduler;

/** Total order within one controller: a counter behind a lock. */
public final class LocalWriteOrdering implements WriteOrdering {
    private long next;

    /** Starts after the positions a recovery log already holds. */
    public LocalWriteOrdering(long lastPosition) {
        this.next = lastPosition + 1;
    }

    public LocalWriteOrdering() {
        this(0);
    }

    @Override
    public synchronized void order(Delivery deliver) {
        deliver.deliver(next++);
    }

    @Override
    public synchronized long lastPosition() {
        return next - 1;
    }
}
