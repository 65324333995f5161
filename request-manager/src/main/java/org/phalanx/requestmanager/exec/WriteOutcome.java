package org.phalanx.requestmanager.exec;

import org.phalanx.requestmanager.api.Result;

/**
 * What one backend returned for a write: an update count with optional generated keys, or rows
 * (SELECT ... FOR UPDATE, RETURNING). Rows (as canonical values) and keys are detached copies, because the backend's
 * statement is closed before the client reads them. {@code lastInsertId}: after a write that changes
 * it, the last inserted id the backend connection that ran it reports ({@link
 * org.phalanx.requestmanager.analysis.LastInsertId}; the same on every replica: their keys follow
 * the order of writes); null otherwise.
 */
public record WriteOutcome(long count, Result.Cached rows, Result.Cached keys, Long lastInsertId) {

    public Result toResult() {
        if (rows != null) {
            return rows;
        }
        return new Result.UpdateCount(count, keys);
    }
}
