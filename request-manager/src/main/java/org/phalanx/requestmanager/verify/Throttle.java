package org.phalanx.requestmanager.verify;

import java.sql.SQLException;
import org.phalanx.engine.SqlState;

/**
 * Keeps verification under a rows-per-second limit by sleeping between chunks, so it leaves the
 * backends to the clients: after n rows it waits until n / limit seconds have passed since start.
 */
final class Throttle {
    private final long rowsPerSecond;
    private final long start = System.nanoTime();
    private long rows;

    /** @param rowsPerSecond 0 for no limit */
    Throttle(long rowsPerSecond) {
        this.rowsPerSecond = rowsPerSecond;
    }

    void passed(long n) throws SQLException {
        rows += n;
        if (rowsPerSecond <= 0) {
            return;
        }
        long due = start + rows * 1_000_000_000L / rowsPerSecond;
        long wait = due - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("verification interrupted", SqlState.OPERATION_CANCELED.code(), e);
            }
        }
    }
}
