package org.phalanx.requestmanager.config;

/** How a read that must see certain writes picks its backend. */
public enum ReadRouting {
    /**
     * Among the backends where those writes are already done (conflict-aware scheduling, Amza,
     * Cox and Zwaenepoel, USITS 2003), the balancing policy's choice; a read waits only when no
     * backend has them yet.
     */
    CONFLICT_AWARE,
    /**
     * The balancing policy's choice among every backend able to serve the read, where the read
     * then waits until those writes are done: routing by load only, kept to measure what
     * conflict-aware routing gains (bench scenario {@code isolation}).
     */
    LOAD
}
