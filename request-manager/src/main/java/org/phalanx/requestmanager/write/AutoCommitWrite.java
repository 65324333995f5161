package org.phalanx.requestmanager.write;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.exec.StatementRunner;
import org.phalanx.requestmanager.exec.WriteOutcome;
import org.phalanx.requestmanager.recovery.AppliedPositions;
import org.phalanx.requestmanager.recovery.AppliedRecords;

/**
 * An auto-commit write on one backend; lock contention there is waited out, since others may
 * have applied it. With a recovery log it runs as a short transaction that also records its
 * position on the backend and commits once its log entry is durable.
 */
final class AutoCommitWrite {
    private AutoCommitWrite() {
    }

    static WriteOutcome run(Backend b, String user, List<String> statements, Request r, long position,
                            CompletableFuture<?> durable, AppliedRecords applied, long lockTimeoutMillis)
            throws Exception {
        long deadline = System.currentTimeMillis() + lockTimeoutMillis;
        long pause = 5;
        while (true) {
            try (Connection c = b.connectionFor(user)) {
                if (!applied.recordsApplied(b)) {
                    return StatementRunner.executeWrite(c, statements, r);
                }
                return AppliedPositions.runUnit(c, b.engine(), statements.get(0), position, durable,
                        () -> StatementRunner.executeWrite(c, statements, r));
            } catch (SQLException e) {
                if (!BackendErrors.isContention(e, b.dialect()) || System.currentTimeMillis() + pause > deadline) {
                    applied.unitFailed(b, position);
                    throw e;
                }
                Thread.sleep(pause);
                pause = Math.min(pause * 2, 200);
            }
        }
    }
}
