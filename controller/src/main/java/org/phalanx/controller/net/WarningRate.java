package org.phalanx.controller.net;

import java.time.Duration;

/**
 * Lets a kind of warning through at most once per interval, so that a flood of refused
 * connections writes a line now and then, not a line each; the line let through says how many
 * were left out since the last one.
 */
final class WarningRate {
    private final long intervalNanos;
    private long nextNanos = Long.MIN_VALUE;
    private long leftOut;

    WarningRate(Duration interval) {
        this.intervalNanos = interval.toNanos();
    }

    /** @return -1 if this warning is to be left out, else how many were left out before it */
    synchronized long admit() {
        long now = System.nanoTime();
        if (nextNanos != Long.MIN_VALUE && now - nextNanos < 0) {
            leftOut++;
            return -1;
        }
        nextNanos = now + intervalNanos;
        long before = leftOut;
        leftOut = 0;
        return before;
    }

    /** The suffix of a warning let through: nothing, or how many like it were not logged. */
    static String leftOut(long count) {
        return count == 0 ? "" : " (" + count + " more like it since the last such line, not logged)";
    }
}
