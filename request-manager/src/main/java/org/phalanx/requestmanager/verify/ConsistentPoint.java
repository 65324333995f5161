package org.phalanx.requestmanager.verify;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.recovery.Snapshots;
import org.phalanx.requestmanager.scheduler.LockManager;
import org.phalanx.requestmanager.scheduler.Quiesce;
import org.phalanx.requestmanager.scheduler.Scheduler;

/**
 * Opens read snapshots of several replicas at one position of the write order: writes pause,
 * each replica finishes what was queued for it, each snapshot is taken, writes resume. What the
 * snapshots then read is the same committed history on every replica, while writes go on; a write
 * ordered after the point is in none of them, so it can never look like a difference.
 */
final class ConsistentPoint {
    /** How long a replica may take to apply what was queued before the point; writes are paused meanwhile. */
    private static final Duration DRAIN_LIMIT = Duration.ofMinutes(2);

    private final Scheduler scheduler;

    ConsistentPoint(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** The snapshots, in the order of {@code replicas}, and the write order's position they show. */
    record Opened(List<ReplicaSnapshot> snapshots, long position) implements AutoCloseable {
        @Override
        public void close() {
            snapshots.forEach(ReplicaSnapshot::close);
        }
    }

    Opened open(List<Backend> replicas) throws SQLException {
        List<Connection> connections = new ArrayList<>(replicas.size());
        try {
            // connections first: writes pause only for the drain and the snapshots themselves
            for (Backend b : replicas) {
                connections.add(b.connection(b.config().credentials()));
            }
            List<ReplicaSnapshot> snapshots = new ArrayList<>(replicas.size());
            long position;
            try (Quiesce paused = scheduler.quiesce()) {
                position = scheduler.lastPosition();
                for (Backend b : replicas) {
                    drain(b);
                }
                for (int i = 0; i < replicas.size(); i++) {
                    Backend b = replicas.get(i);
                    Connection c = connections.get(i);
                    Engine engine = b.dialect();
                    if (engine == Engine.MARIADB) {
                        // a consistent snapshot holds at REPEATABLE READ only
                        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                    }
                    Snapshots.begin(c, engine);
                    snapshots.add(new ReplicaSnapshot(b, c, engine, c.getMetaData().getIdentifierQuoteString()));
                }
            }
            for (ReplicaSnapshot s : snapshots) {
                if (s.engine() == Engine.SQLITE) {
                    SqliteRowHash.register(s.connection());
                }
            }
            return new Opened(snapshots, position);
        } catch (SQLException | RuntimeException e) {
            for (Connection c : connections) {
                try {
                    c.rollback();
                    c.close();
                } catch (SQLException ignored) {
                    // the pool resets it
                }
            }
            throw e;
        }
    }

    /** With writes paused: waits until the replica has run everything queued for it. */
    private static void drain(Backend b) throws SQLException {
        long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
        while (!b.caughtUp(Set.of(LockManager.ALL))) {
            if (!b.isEnabled()) {
                throw new SQLException("backend " + b.name() + " left service during verification",
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
            }
            if (System.nanoTime() > deadline) {
                throw new SQLException("backend " + b.name() + " did not finish its queued writes within "
                        + DRAIN_LIMIT.toSeconds() + " s: not verified", SqlState.QUERY_CANCELED.code());
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted", SqlState.OPERATION_CANCELED.code(), e);
            }
        }
    }
}
