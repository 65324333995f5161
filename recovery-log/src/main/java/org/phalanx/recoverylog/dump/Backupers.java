package org.phalanx.recoverylog.dump;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reading dump files without knowing their format, and the backupers available here. */
public final class Backupers {
    private Backupers() {
    }

    /** The description stored in a dump file (cheap: reads the zip directory and the info entry only). */
    public static DumpInfo readInfo(Path dumpFile) throws DumpException {
        try (DumpArchive.Reader reader = new DumpArchive.Reader(dumpFile)) {
            return reader.dumpInfo();
        }
    }

    /** Reads the whole dump and checks every entry's size and CRC; throws if anything is damaged. */
    public static DumpInfo verify(Path dumpFile, Progress progress) throws DumpException {
        try (DumpArchive.Reader reader = new DumpArchive.Reader(dumpFile)) {
            DumpInfo info = reader.dumpInfo();
            reader.verify(progress);
            return info;
        }
    }

    /**
     * The backupers that can run on this machine: the portable one and SQLite's native one
     * always, {@code pg_dump}/{@code mysqldump} ones only when those programs are on the PATH.
     */
    public static List<Backuper> available() {
        List<Backuper> list = new ArrayList<>();
        list.add(new PortableBackuper());
        list.add(new SqliteNativeBackuper());
        if (PgDumpBackuper.isInstalled()) {
            list.add(new PgDumpBackuper());
        }
        if (MysqlDumpBackuper.isInstalled()) {
            list.add(new MysqlDumpBackuper());
        }
        return List.copyOf(list);
    }

    /** The backuper that wrote dumps of {@code format}. */
    public static Backuper forFormat(String format) throws DumpException {
        for (Backuper b : available()) {
            if (b.format().equals(format)) {
                return b;
            }
        }
        throw new DumpException("no backuper for dump format '" + format + "' is available here");
    }
}
