package org.phalanx.controller.vdb;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A daemon thread of its own running a task once per period, the next one period after the
 * previous ended (a slow run never overlaps the next), until stopped.
 */
final class PeriodicTask {
    private final ScheduledExecutorService thread;

    private PeriodicTask(ScheduledExecutorService thread) {
        this.thread = thread;
    }

    static PeriodicTask start(String threadName, Duration period, Runnable task) {
        ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        s.scheduleWithFixedDelay(task, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        return new PeriodicTask(s);
    }

    void stop() {
        thread.shutdownNow();
    }
}
