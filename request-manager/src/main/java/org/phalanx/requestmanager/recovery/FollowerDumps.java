package org.phalanx.requestmanager.recovery;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.recoverylog.dump.Backuper;
import org.phalanx.recoverylog.dump.Backupers;
import org.phalanx.recoverylog.dump.DumpException;
import org.phalanx.recoverylog.dump.PortableBackuper;
import org.phalanx.recoverylog.dump.Progress;
import org.phalanx.requestmanager.backend.Backend;

/**
 * Dumps for a group's compacted log on a member that is not the primary (docs/distribution.md,
 * Compaction): taking one from a backend that holds exactly the log up to a position, and
 * restoring a received one onto every backend, whose records then say "everything up to the
 * dump's position applied", so that {@link FollowerCatchUp} gives each exactly what follows.
 * Dumps are portable (engine-independent): members' backends may run different engines.
 */
public final class FollowerDumps {
    private FollowerDumps() {
    }

    /**
     * Dumps {@code b}, which holds exactly the log up to {@code position} and which nothing else
     * writes meanwhile (the follower applies the log on the thread that calls this).
     */
    public static void take(Backend b, Path file, long position) throws SQLException {
        try (Connection c = b.connection(b.config().credentials())) {
            c.setAutoCommit(false);
            try {
                Backupers.forFormat(PortableBackuper.FORMAT).backup(c, file, "group-dump", position, Progress.NONE);
            } finally {
                c.rollback();
                c.setAutoCommit(true);
            }
        } catch (DumpException e) {
            throw new SQLException("dump of backend " + b.name() + " failed: " + e.getMessage(),
                    SqlState.IO_ERROR.code(), e);
        }
    }

    /**
     * Replaces the data of every backend by the dump's (taken at {@code position}) and records it as
     * holding the log up to there, following it ("enabled"). A backend cut short stays "restoring"
     * (not followed) until a next restore succeeds.
     */
    public static void restore(List<Backend> backends, RecoveryLog log, Path file, long position)
            throws SQLException {
        BackendStates states = new BackendStates(log);
        Backuper backuper;
        try {
            backuper = Backupers.forFormat(Backupers.verify(file, Progress.NONE).format());
        } catch (DumpException e) {
            throw new SQLException("the group's dump " + file + " cannot be restored: " + e.getMessage(),
                    SqlState.IO_ERROR.code(), e);
        }
        for (Backend b : backends) {
            states.restoring(b, position);
            try (Connection c = b.connection(b.config().credentials())) {
                AppliedPositions.clear(c, AppliedTable.of(b));
                backuper.restore(file, c, true, Progress.NONE);
                AppliedPositions.reset(c, AppliedTable.of(b), position);
            } catch (DumpException e) {
                throw new SQLException("restore of the group's dump onto backend " + b.name() + " failed: "
                        + e.getMessage(), SqlState.IO_ERROR.code(), e);
            }
            log.removeCheckpoint(AppliedRecords.checkpointName(b));
            states.enabled(b);
        }
    }
}
