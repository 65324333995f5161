package org.phalanx.controller.vdb;

import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The thread that enables again, on the recovery log's {@code autoEnable} period, each backend that
 * left service to be caught up and connects again (a restarted server, a network cut that healed):
 * the same replay an operator's enable runs, while clients go on. A backend whose enable fails is
 * tried again after twice as long each time (at most {@link #MAX_BACKOFF} periods), so a backend
 * that keeps failing does not fill the log. Backends an operator disabled, or that disagreed with
 * the others, are never touched.
 */
final class AutoEnable {
    private static final Logger LOG = LogManager.getLogger(AutoEnable.class);
    private static final int MAX_BACKOFF = 16;

    private final VirtualDatabase vdb;
    private volatile PeriodicTask thread;
    /** Per backend whose last enable failed: periods to skip before the next try, and the next backoff. */
    private final Map<String, int[]> backoff = new HashMap<>();

    private AutoEnable(VirtualDatabase vdb) {
        this.vdb = vdb;
    }

    static AutoEnable start(VirtualDatabase vdb, Duration every) {
        AutoEnable auto = new AutoEnable(vdb);
        auto.thread = PeriodicTask.start("phalanx-auto-enable-" + vdb.name(), every, auto::run);
        LOG.info("Virtual database {}: backends that left service to be caught up are enabled again when they"
                + " connect (tried every {})", vdb.name(), every);
        return auto;
    }

    private void run() {
        if (!vdb.serves()) {
            return; // a follower of a distributed virtual database follows its group's log instead
        }
        try {
            for (String backend : vdb.backendsToCatchUp()) {
                int[] wait = backoff.get(backend);
                if (wait != null && wait[0]-- > 0) {
                    continue;
                }
                try {
                    vdb.enableBackendAutomatically(backend);
                    backoff.remove(backend);
                } catch (SQLException e) {
                    int next = wait == null ? 1 : Math.min(MAX_BACKOFF, wait[1] * 2);
                    backoff.put(backend, new int[] {next, next});
                    LOG.warn("Virtual database {}: backend {} was not enabled automatically ({}); next try in {}"
                            + " periods", vdb.name(), backend, e.getMessage(), next + 1);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Virtual database {}: automatic enable did not run: {}", vdb.name(), e.getMessage());
        }
    }

    void stop() {
        thread.stop();
    }
}
