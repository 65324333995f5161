package org.phalanx.controller.web;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Operator actions started from the dashboard: run one at a time on a thread of their own (a
 * replay or a backup takes long; the page follows it by polling), and the last {@link #KEPT}
 * with who started them and how they ended.
 */
final class ActionLog implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(ActionLog.class);
    static final int KEPT = 50;
    private static final int QUEUED = 20;

    /** An action that may fail with an SQLException (MBean operations do). */
    @FunctionalInterface
    interface Work {
        /** Returns what to show when it succeeded. */
        String run() throws SQLException;
    }

    record Action(long id, long startedMillis, String user, String vdb, String action, String target,
                  String state, String message) {
        Action ended(String endState, String endMessage) {
            return new Action(id, startedMillis, user, vdb, action, target, endState, endMessage);
        }
    }

    private final AtomicLong ids = new AtomicLong();
    private final Deque<Action> actions = new ArrayDeque<>();
    private final ThreadPoolExecutor runner = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUED), r -> {
                Thread t = new Thread(r, "phalanx-dashboard-action");
                t.setDaemon(true);
                return t;
            });

    /** Queues an action; returns it as RUNNING. Refused (IllegalStateException) when too many wait already. */
    Action start(String user, String vdb, String action, String target, Work work) {
        Action started = new Action(ids.incrementAndGet(), System.currentTimeMillis(), user, vdb, action, target,
                "RUNNING", "");
        record(started); // before it runs: its end must not be overwritten by its start
        try {
            runner.execute(() -> run(started, work));
        } catch (RejectedExecutionException e) {
            String refused = QUEUED + " dashboard actions are waiting already: try again when they are done";
            record(started.ended("FAILED", refused));
            throw new IllegalStateException(refused);
        }
        LOG.info("Dashboard: {} started {} {} {}", user, action, vdb, target);
        return started;
    }

    private void run(Action started, Work work) {
        try {
            record(started.ended("DONE", work.run()));
        } catch (SQLException e) {
            LOG.warn("Dashboard: {} {} {} failed: {} (SQLState {})", started.action(), started.vdb(), started.target(),
                    e.getMessage(), e.getSQLState());
            record(started.ended("FAILED", e.getMessage() + (e.getSQLState() == null ? "" : " (SQLState " + e.getSQLState() + ")")));
        } catch (RuntimeException e) {
            LOG.warn("Dashboard: {} {} {} failed", started.action(), started.vdb(), started.target(), e);
            record(started.ended("FAILED", String.valueOf(e.getMessage())));
        }
    }

    private synchronized void record(Action a) {
        actions.removeIf(old -> old.id() == a.id());
        actions.addFirst(a);
        while (actions.size() > KEPT) {
            actions.removeLast();
        }
    }

    /** Newest first. */
    synchronized List<Action> recent() {
        return new ArrayList<>(actions);
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }
}
