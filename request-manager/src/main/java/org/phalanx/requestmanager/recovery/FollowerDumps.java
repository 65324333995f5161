package org.phalanx.requestmanager.recovery;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.recoverylog.dump.Backuper;
import org.phalanx.recoverylog.dump.Backupers;
import org.phalanx.recoverylog.dump.DumpException;
import org.phalanx.recoverylog.dump.DumpInfo;
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
     * Dumps the union of several backends' tables as one portable dump (a member replicating
     * partially: none of its backends holds every table), each table from the backend it is listed
     * under; the backends hold exactly the log up to {@code position}, and nothing else writes them
     * meanwhile (as for {@link #take}).
     */
    public static void takeUnion(Map<Backend, Set<String>> tables, Path file, long position) throws SQLException {
        List<Connection> open = new ArrayList<>();
        try {
            List<PortableBackuper.Part> parts = new ArrayList<>();
            for (Map.Entry<Backend, Set<String>> e : tables.entrySet()) {
                Backend b = e.getKey();
                Connection c = b.connection(b.config().credentials());
                open.add(c);
                c.setAutoCommit(false);
                parts.add(new PortableBackuper.Part(c, e.getValue()));
            }
            new PortableBackuper().backupUnion(parts, file, "group-dump", position, Progress.NONE);
        } catch (DumpException e) {
            throw new SQLException("dump of backends " + tables.keySet().stream().map(Backend::name).toList()
                    + " failed: " + e.getMessage(), SqlState.IO_ERROR.code(), e);
        } finally {
            for (Connection c : open) {
                try (c) {
                    c.rollback();
                    c.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // the pool resets it
                }
            }
        }
    }

    /**
     * After {@link #restore}, on a member replicating partially: drops from each backend the dump's
     * tables its placement does not put there ({@code placed}: backend name to its tables, compared
     * case-insensitively), so that each table is where the member's rules say and nowhere else.
     */
    public static void dropUnplaced(List<Backend> backends, Path file, Map<String, Set<String>> placed)
            throws SQLException {
        List<String> dumped;
        try {
            dumped = Backupers.readInfo(file).tables().stream().map(DumpInfo.TableRows::name).toList();
        } catch (DumpException e) {
            throw new SQLException("the group's dump " + file + " cannot be read: " + e.getMessage(),
                    SqlState.IO_ERROR.code(), e);
        }
        for (Backend b : backends) {
            Set<String> here = placed.getOrDefault(b.name(), Set.of());
            try (Connection c = b.connection(b.config().credentials()); Statement s = c.createStatement()) {
                String quote = c.getMetaData().getIdentifierQuoteString().trim();
                for (String table : dumped) {
                    if (here.stream().noneMatch(table::equalsIgnoreCase)) {
                        s.execute("DROP TABLE " + quote + table.replace(quote, quote + quote) + quote);
                    }
                }
            }
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
