package org.phalanx.requestmanager.verify;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.backend.Backend;

/**
 * A table's consistent point, opened again between chunks once it is older than its engines bear.
 * SQLite cannot checkpoint its WAL past a reader's snapshot, so while one is open every write
 * since lands in an ever longer WAL and each page lookup of a write searches more of it: measured
 * on 3 SQLite replicas under 12,000 writes/s, a 20 s snapshot grew the WAL past 300 MB and slowed
 * two replicas until their queues passed maxQueuedWrites and they were disabled. A snapshot of
 * PostgreSQL or MariaDB only holds back vacuum or purge, and is kept for the whole table.
 *
 * <p>Each chunk is still compared within one snapshot on every replica, so what it reports is
 * exact for that chunk at that point; chunks compared after a renewal are at a later point.
 */
final class RenewingPoint implements AutoCloseable {
    static final Duration SQLITE_MAX_AGE = Duration.ofSeconds(1);

    private final ConsistentPoint points;
    private final List<Backend> replicas;
    private final long maxAgeNanos;
    private final long firstPosition;
    private ConsistentPoint.Opened opened;
    private long openedAtNanos;
    private int renewals;

    private RenewingPoint(ConsistentPoint points, List<Backend> replicas, ConsistentPoint.Opened opened) {
        this.points = points;
        this.replicas = replicas;
        this.opened = opened;
        this.openedAtNanos = System.nanoTime();
        this.firstPosition = opened.position();
        boolean sqlite = replicas.stream().anyMatch(b -> b.dialect() == Engine.SQLITE);
        this.maxAgeNanos = sqlite ? SQLITE_MAX_AGE.toNanos() : Long.MAX_VALUE;
    }

    static RenewingPoint open(ConsistentPoint points, List<Backend> replicas) throws SQLException {
        return new RenewingPoint(points, replicas, points.open(replicas));
    }

    ConsistentPoint.Opened current() {
        return opened;
    }

    /** Opens a new point if this one is too old; returns whether it did (snapshots then changed). */
    boolean renewIfOld() throws SQLException {
        if (System.nanoTime() - openedAtNanos < maxAgeNanos) {
            return false;
        }
        opened.close();
        opened = points.open(replicas);
        openedAtNanos = System.nanoTime();
        renewals++;
        return true;
    }

    /** The write order's position of the first point. */
    long firstPosition() {
        return firstPosition;
    }

    int renewals() {
        return renewals;
    }

    @Override
    public void close() {
        opened.close();
    }
}
