package org.phalanx.requestmanager.recovery;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.phalanx.requestmanager.config.RecoveryConfig;

/**
 * The thread that takes checkpoints on a timer or every so many logged entries, and raises the
 * backends' record floors in between; started once the virtual database is up.
 */
final class CheckpointSchedule {
    private final String virtualDatabase;
    private final RecoveryConfig config;
    private final AppliedRecords applied;
    private volatile ScheduledExecutorService thread;
    private Runnable checkpoint;
    private Runnable raiseFloors;

    CheckpointSchedule(String virtualDatabase, RecoveryConfig config, AppliedRecords applied) {
        this.virtualDatabase = virtualDatabase;
        this.config = config;
        this.applied = applied;
    }

    /** From now on takes {@code checkpoint} on the configured schedule; {@code raiseFloors} when only floors are due. */
    void start(Runnable checkpoint, Runnable raiseFloors) {
        this.checkpoint = checkpoint;
        this.raiseFloors = raiseFloors;
        ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "phalanx-checkpoints-" + virtualDatabase);
            t.setDaemon(true);
            return t;
        });
        Duration every = config.checkpointEvery();
        if (every != null && !every.isZero()) {
            s.scheduleAtFixedRate(() -> run(checkpoint), every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        }
        thread = s;
    }

    /** Called with each logged position, inside the write ordering: the work itself runs on the schedule's thread. */
    void appended(long position) {
        long every = config.checkpointEveryWrites();
        if (every > 0 && position % every == 0) {
            run(checkpoint);
        } else if ((every <= 0 || every > AppliedRecords.FLOOR_EVERY) && applied.claimFloorRaise(position)) {
            run(raiseFloors);
        }
    }

    /** Runs a task on the schedule's thread; dropped before start and while stopping. */
    void run(Runnable task) {
        ScheduledExecutorService s = thread;
        if (s == null || s.isShutdown()) {
            return;
        }
        try {
            s.execute(task);
        } catch (RejectedExecutionException stopping) {
            // shutting down
        }
    }

    void stop() {
        ScheduledExecutorService s = thread;
        if (s != null) {
            s.shutdownNow();
        }
    }
}
