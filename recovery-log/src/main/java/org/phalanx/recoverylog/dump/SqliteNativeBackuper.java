package org.phalanx.recoverylog.dump;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.ControllerTables;

/**
 * SQLite's fast path: an online backup of the whole database file through the given connection
 * (sqlite-jdbc's {@code backup to} statement, SQLite's backup API, which copies pages and sees
 * the connection's consistent view), stored in the dump zip as {@code database.sqlite}. Restoring
 * copies it back with sqlite-jdbc's {@code restore from}, which replaces the whole target
 * database in one step: tables the dump does not have are gone afterwards too.
 */
public final class SqliteNativeBackuper implements Backuper {
    public static final String FORMAT = "sqlite-native";
    static final String ENTRY = "database.sqlite";

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public boolean supports(Engine engine) {
        return engine == Engine.SQLITE;
    }

    @Override
    public DumpInfo backup(Connection source, Path dumpFile, String checkpointName, long checkpointPosition,
                           Progress progress) throws DumpException {
        Objects.requireNonNull(checkpointName, "checkpointName");
        Progress report = progress == null ? Progress.NONE : progress;
        Path copy = null;
        try (DumpArchive.Writer out = new DumpArchive.Writer(dumpFile)) {
            if (Engine.of(source) != Engine.SQLITE) {
                throw new DumpException("the SQLite native backuper reads SQLite databases only");
            }
            Map<String, String> info = header(checkpointName, checkpointPosition, source);
            List<String> tables = SqlIdentifiers.tables(Engine.SQLITE, source);
            info.put("tables", Integer.toString(tables.size()));
            long total = 0;
            for (int i = 0; i < tables.size(); i++) {
                long rows = SqlIdentifiers.countRows(Engine.SQLITE, source, tables.get(i));
                total += rows;
                info.put("table." + (i + 1) + ".name", tables.get(i));
                info.put("table." + (i + 1) + ".rows", Long.toString(rows));
            }
            copy = Files.createTempFile(dumpFile.toAbsolutePath().getParent(), ".sqlite-backup", ".tmp");
            Files.delete(copy); // the backup creates it
            try (Statement s = source.createStatement()) {
                s.executeUpdate("backup to \"" + copy + "\"");
            }
            dropControllerTables(copy);
            long bytes = Files.size(copy);
            report.report(0, bytes, "bytes");
            try (OutputStream entry = out.entry(ENTRY, true)) {
                Files.copy(copy, entry);
            }
            report.report(bytes, bytes, "bytes");
            long size = out.commit(info);
            DumpInfo read = Backupers.readInfo(dumpFile);
            return new DumpInfo(read.format(), read.checkpointName(), read.checkpointPosition(), read.sourceEngine(),
                    read.tables(), size, read.created());
        } catch (DumpException e) {
            throw e;
        } catch (Exception e) {
            throw new DumpException("SQLite backup to " + dumpFile + " failed (nothing was written): " + e.getMessage(), e);
        } finally {
            deleteDatabaseQuietly(copy);
        }
    }

    /** The copy is the whole file: the controller's own tables come out of it before it goes in the dump. */
    private static void dropControllerTables(Path copy) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement s = c.createStatement()) {
            s.executeUpdate("DROP TABLE IF EXISTS " + ControllerTables.APPLIED);
        }
    }

    static Map<String, String> header(String checkpointName, long checkpointPosition, Connection source)
            throws SQLException {
        Map<String, String> info = new LinkedHashMap<>();
        info.put("format", FORMAT);
        info.put("checkpoint.name", checkpointName);
        info.put("checkpoint.position", Long.toString(checkpointPosition));
        info.put("source.engine", Engine.SQLITE.name());
        info.put("source.product", source.getMetaData().getDatabaseProductName() + " "
                + source.getMetaData().getDatabaseProductVersion());
        info.put("created", Instant.now().toString());
        return info;
    }

    @Override
    public void restore(Path dumpFile, Connection target, boolean force, Progress progress) throws DumpException {
        Progress report = progress == null ? Progress.NONE : progress;
        Path copy = null;
        try (DumpArchive.Reader in = new DumpArchive.Reader(dumpFile)) {
            DumpInfo info = in.dumpInfo();
            if (!FORMAT.equals(info.format())) {
                throw new DumpException("dump " + dumpFile + " is in format '" + info.format() + "', not " + FORMAT);
            }
            String refused = refusal(info, target, force);
            if (refused != null) {
                throw new DumpException(refused);
            }
            in.verify(report);
            copy = Files.createTempFile(dumpFile.toAbsolutePath().getParent(), ".sqlite-restore", ".tmp");
            try (InputStream entry = in.entry(ENTRY)) {
                Files.copy(entry, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            boolean autoCommit = target.getAutoCommit();
            if (!autoCommit) {
                target.rollback(); // the backup API needs no open transaction on the target
                target.setAutoCommit(true);
            }
            try (Statement s = target.createStatement()) {
                s.executeUpdate("restore from \"" + copy + "\"");
            } finally {
                target.setAutoCommit(autoCommit);
            }
            report.report(info.totalRows(), info.totalRows(), "rows");
        } catch (DumpException e) {
            throw e;
        } catch (Exception e) {
            throw new DumpException("SQLite restore of " + dumpFile + " failed: " + e.getMessage()
                    + " (SQLite's backup API replaces the database in one step: it is as it was)", e);
        } finally {
            deleteDatabaseQuietly(copy);
        }
    }

    /** Another engine, or rows in any table without force: the restore replaces the whole database. */
    @Override
    public String refusal(DumpInfo info, Connection target, boolean force) throws SQLException {
        if (Engine.of(target) != Engine.SQLITE) {
            return "a SQLite native dump restores onto SQLite only; use the portable backuper";
        }
        String holding = force ? "" : Backuper.holdingRows(target, null);
        return holding.isEmpty() ? null : "refusing to restore: the target already holds data in " + holding
                + "; restore with force to replace the whole database. Nothing was changed.";
    }

    /**
     * A temporary SQLite database and what SQLite keeps beside it: a copy of a database in WAL mode
     * is in WAL mode too, and opening it (as a restore's source, read only) leaves "-wal" and
     * "-shm" files that its last connection does not remove.
     */
    private static void deleteDatabaseQuietly(Path p) {
        if (p != null) {
            for (String suffix : new String[] {"-wal", "-shm", "-journal"}) {
                deleteQuietly(p.resolveSibling(p.getFileName() + suffix));
            }
            deleteQuietly(p);
        }
    }

    static void deleteQuietly(Path p) {
        if (p != null) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // a temporary file
            }
        }
    }
}
