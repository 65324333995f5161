package org.phalanx.recoverylog.dump;

import java.time.Instant;
import java.util.List;
import org.phalanx.engine.Engine;

/**
 * What a dump file holds, readable back from it with {@link Backupers#readInfo}.
 *
 * @param format             the backuper that wrote it ({@link Backuper#format()})
 * @param checkpointName     the recovery log checkpoint the dump reflects
 * @param checkpointPosition that checkpoint's log position: replay from here after restoring
 * @param sourceEngine       the engine it was taken from
 * @param tables             the tables in it, with their row counts (-1 where the format cannot tell)
 * @param size               the dump file's size in bytes
 * @param created            when it was taken
 */
public record DumpInfo(String format, String checkpointName, long checkpointPosition, Engine sourceEngine,
                       List<TableRows> tables, long size, Instant created) {

    /** A table of the dump and how many rows it holds. */
    public record TableRows(String name, long rows) {
    }

    public DumpInfo {
        tables = List.copyOf(tables);
    }

    /** Rows in all tables. */
    public long totalRows() {
        return tables.stream().mapToLong(t -> Math.max(0, t.rows())).sum();
    }
}
