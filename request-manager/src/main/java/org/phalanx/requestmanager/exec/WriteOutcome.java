package org.phalanx.requestmanager.exec;

import org.phalanx.requestmanager.api.Result;

/**
 * What one backend returned for a write: an update count with optional generated keys, or rows
 * (SELECT ... FOR UPDATE, RETURNING). Rows (as canonical values) and keys are detached copies, because the backend's
 * statement is closed before the client reads them.
 */
public record WriteOutcome(long count, Result.Cached rows, Result.Cached keys) {

    public Result toResult() {
        if (rows != null) {
            return rows;
        }
        return new Result.UpdateCount(count, keys);
    }
}
