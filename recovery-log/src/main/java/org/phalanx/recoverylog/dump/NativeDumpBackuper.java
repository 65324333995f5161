package org.phalanx.recoverylog.dump;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.phalanx.engine.Engine;

/**
 * What the backupers built on an engine's own dump and restore programs share: the program
 * writes a file, the file goes into the dump zip with the usual info, and restoring verifies the
 * zip, checks the target, extracts the file and hands it to the restore program.
 */
abstract class NativeDumpBackuper implements Backuper {
    private final String password;

    /** @param password the password for the programs (null when the server trusts the user) */
    NativeDumpBackuper(String password) {
        this.password = password;
    }

    abstract Engine engine();

    abstract String entryName();

    /** Whether the entry is compressed already (then it is stored, not deflated again). */
    abstract boolean compressed();

    /** Writes the dump of {@code source}'s database to {@code file}; may add entries to {@code info}. */
    abstract void dump(Connection source, NativeTools.Server server, Path file, Map<String, String> info) throws Exception;

    /** Restores {@code file} onto {@code target}'s database; {@code info} is the dump's. */
    abstract void load(NativeTools.Server server, Path file, boolean force, Map<String, String> info) throws Exception;

    abstract String database(Connection c) throws SQLException;

    abstract int defaultPort();

    String password() {
        return password;
    }

    @Override
    public boolean supports(Engine engine) {
        return engine == engine();
    }

    @Override
    public DumpInfo backup(Connection source, Path dumpFile, String checkpointName, long checkpointPosition,
                           Progress progress) throws DumpException {
        Objects.requireNonNull(checkpointName, "checkpointName");
        Progress report = progress == null ? Progress.NONE : progress;
        Path file = null;
        try (DumpArchive.Writer out = new DumpArchive.Writer(dumpFile)) {
            if (Engine.of(source) != engine()) {
                throw new DumpException(format() + " dumps " + engine() + " databases only");
            }
            Map<String, String> info = new LinkedHashMap<>();
            info.put("format", format());
            info.put("checkpoint.name", checkpointName);
            info.put("checkpoint.position", Long.toString(checkpointPosition));
            info.put("source.engine", engine().name());
            info.put("source.product", source.getMetaData().getDatabaseProductName() + " "
                    + source.getMetaData().getDatabaseProductVersion());
            info.put("created", Instant.now().toString());
            List<String> tables = SqlIdentifiers.tables(engine(), source);
            info.put("tables", Integer.toString(tables.size()));
            long total = 0;
            for (int i = 0; i < tables.size(); i++) {
                long rows = SqlIdentifiers.countRows(engine(), source, tables.get(i));
                total += rows;
                info.put("table." + (i + 1) + ".name", tables.get(i));
                info.put("table." + (i + 1) + ".rows", Long.toString(rows));
            }
            report.report(0, total, "rows");
            file = Files.createTempFile(dumpFile.toAbsolutePath().getParent(), "." + format(), ".tmp");
            dump(source, NativeTools.server(source, defaultPort(), database(source)), file, info);
            try (OutputStream entry = out.entry(entryName(), !compressed())) {
                Files.copy(file, entry);
            }
            long size = out.commit(info);
            report.report(total, total, "rows");
            DumpInfo read = Backupers.readInfo(dumpFile);
            return new DumpInfo(read.format(), read.checkpointName(), read.checkpointPosition(), read.sourceEngine(),
                    read.tables(), size, read.created());
        } catch (DumpException e) {
            throw e;
        } catch (Exception e) {
            throw new DumpException(format() + " backup to " + dumpFile + " failed (nothing was written): "
                    + e.getMessage(), e);
        } finally {
            SqliteNativeBackuper.deleteQuietly(file);
        }
    }

    /** Another engine, or rows in any table without force (with it, the dump's tables are replaced, others kept). */
    @Override
    public String refusal(DumpInfo info, Connection target, boolean force) throws SQLException {
        if (Engine.of(target) != engine()) {
            return "a " + format() + " dump restores onto " + engine() + " only; use the portable backuper";
        }
        String holding = force ? "" : Backuper.holdingRows(target, null);
        return holding.isEmpty() ? null : "refusing to restore: the target already holds data in " + holding
                + "; restore with force to replace the tables the dump holds (the others are kept). Nothing was changed.";
    }

    @Override
    public void restore(Path dumpFile, Connection target, boolean force, Progress progress) throws DumpException {
        Progress report = progress == null ? Progress.NONE : progress;
        Path file = null;
        try (DumpArchive.Reader in = new DumpArchive.Reader(dumpFile)) {
            DumpInfo info = in.dumpInfo();
            if (!format().equals(info.format())) {
                throw new DumpException("dump " + dumpFile + " is in format '" + info.format() + "', not " + format());
            }
            String refused = refusal(info, target, force);
            if (refused != null) {
                throw new DumpException(refused);
            }
            in.verify(report);
            if (!target.getAutoCommit()) {
                target.rollback(); // our reads must not hold locks the restore program waits for
            }
            file = Files.createTempFile(dumpFile.toAbsolutePath().getParent(), "." + format(), ".tmp");
            try (InputStream entry = in.entry(entryName())) {
                Files.copy(entry, file, StandardCopyOption.REPLACE_EXISTING);
            }
            load(NativeTools.server(target, defaultPort(), database(target)), file, force, in.info());
            report.report(info.totalRows(), info.totalRows(), "rows");
        } catch (DumpException e) {
            throw e;
        } catch (Exception e) {
            throw new DumpException(format() + " restore of " + dumpFile + " failed: " + e.getMessage(), e);
        } finally {
            SqliteNativeBackuper.deleteQuietly(file);
        }
    }
}
