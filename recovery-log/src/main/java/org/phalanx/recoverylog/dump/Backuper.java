package org.phalanx.recoverylog.dump;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.phalanx.engine.Engine;

/**
 * Takes and restores dumps of a backend. A dump is tagged with the recovery log checkpoint it
 * reflects: restoring it and replaying the log from that checkpoint brings a backend up to date.
 *
 * <p>A dump is written to a temporary file next to {@code dumpFile} and renamed at the end, so a
 * failed backup leaves nothing. Every dump file is a zip archive holding {@code dump.properties}
 * (read by {@link Backupers#readInfo}) and the backuper's own entries, each with its size and
 * CRC recorded, so damage is found before anything is applied.
 */
public interface Backuper {

    /** The name recorded in the dumps this backuper writes ("portable", "sqlite-native", ...). */
    String format();

    /** Whether this backuper can dump from, and restore onto, a database of this engine. */
    boolean supports(Engine engine);

    /**
     * Dumps the database behind {@code source}, reading through that connection only. The caller
     * has opened a transaction on it that gives a consistent snapshot and keeps it open; the
     * backuper never commits, rolls back or closes it.
     *
     * @throws DumpException if the dump failed (then no file was left at {@code dumpFile}) or
     *                       {@code dumpFile} already exists
     */
    DumpInfo backup(Connection source, Path dumpFile, String checkpointName, long checkpointPosition,
                    Progress progress) throws DumpException;

    /**
     * Restores a dump onto the database behind {@code target}. The whole dump is verified first:
     * a corrupt or truncated file is reported before anything is applied. A target whose tables
     * named in the dump already hold rows is refused unless {@code force}, in which case those
     * tables are dropped and replaced. A failed restore leaves the target as it was wherever the
     * backuper can make it so (the portable one always does: one transaction, or on MariaDB new
     * tables swapped in only once complete); otherwise its failure says what was left. The
     * connection stays open, with its auto-commit mode as it was.
     */
    void restore(Path dumpFile, Connection target, boolean force, Progress progress) throws DumpException;

    /**
     * Why a dump described by {@code info} would be refused onto {@code target} — a database of
     * another engine, or, without {@code force}, tables the restore replaces that hold rows — found
     * without changing anything, so that a caller can refuse before it changes the backend's state
     * (a refused restore cost the backend its checkpoint); null if nothing stands in the way.
     * {@link #restore} refuses the same.
     */
    String refusal(DumpInfo info, Connection target, boolean force) throws SQLException;

    /**
     * The tables among {@code tables} (all of the target's: null) that hold rows, as "name (n rows)",
     * comma-separated; empty if none.
     */
    static String holdingRows(Connection target, java.util.Collection<String> tables) throws SQLException {
        Engine engine = Engine.of(target);
        java.util.StringJoiner holding = new java.util.StringJoiner(", ");
        for (String table : SqlIdentifiers.tables(engine, target)) {
            if (tables == null || tables.stream().anyMatch(table::equalsIgnoreCase)) {
                long n = SqlIdentifiers.countRows(engine, target, table);
                if (n > 0) {
                    holding.add(table + " (" + n + " rows)");
                }
            }
        }
        return holding.toString();
    }
}
