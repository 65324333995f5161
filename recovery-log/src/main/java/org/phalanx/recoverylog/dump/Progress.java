package org.phalanx.recoverylog.dump;

/**
 * Receives the progress of a long operation, from the thread doing it: {@code done} of
 * {@code total} {@code unit}s ("rows", "bytes"); {@code total} is -1 when unknown. Called at a
 * bounded rate (per batch, and once at the end with done == total).
 */
@FunctionalInterface
public interface Progress {
    Progress NONE = (done, total, unit) -> { };

    void report(long done, long total, String unit);
}
