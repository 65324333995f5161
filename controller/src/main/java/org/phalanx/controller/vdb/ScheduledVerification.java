package org.phalanx.controller.vdb;

import java.sql.SQLException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.VerificationSchedule;

/**
 * The thread that verifies a virtual database's replicas on its {@code <verification>} schedule.
 * A run that cannot start (another verification running, no request manager on a follower) is
 * logged and skipped; the next comes one period after the previous ended.
 */
final class ScheduledVerification {
    private static final Logger LOG = LogManager.getLogger(ScheduledVerification.class);

    private final PeriodicTask thread;

    private ScheduledVerification(PeriodicTask thread) {
        this.thread = thread;
    }

    static ScheduledVerification start(VirtualDatabase vdb, VerificationSchedule schedule) {
        PeriodicTask t = PeriodicTask.start("phalanx-verification-" + vdb.name(), schedule.every(), () -> run(vdb, schedule));
        LOG.info("Virtual database {}: replicas verified every {} ({}, {} rows/s at most, on difference: {})",
                vdb.name(), schedule.every(), schedule.tables().isEmpty() ? "every table" : schedule.tables(),
                schedule.rowsPerSecond() == 0 ? "no limit" : schedule.rowsPerSecond(),
                schedule.onDifference().name().toLowerCase(java.util.Locale.ROOT));
        return new ScheduledVerification(t);
    }

    private static void run(VirtualDatabase vdb, VerificationSchedule schedule) {
        if (!vdb.serves()) {
            return; // a follower of a distributed virtual database: its primary verifies
        }
        try {
            vdb.verify(schedule.request(null), null);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Virtual database {}: scheduled verification did not run: {}", vdb.name(), e.getMessage());
        }
    }

    void stop() {
        thread.stop();
    }
}
