package org.phalanx.requestmanager.verify;

import java.util.List;
import java.util.Map;

/**
 * The verification of one table across the enabled replicas that hold it.
 *
 * @param table          the table's name (lower case, as the virtual database names it)
 * @param backends       the replicas compared, the first being the reference (chunk bounds come from it)
 * @param position       the write order's position the replicas were compared at
 * @param rowsCompared   rows read on the reference replica
 * @param chunks         chunks compared
 * @param keyed          whether the table has a primary key (without one it is compared whole: count and hash only)
 * @param ranges         the chunks that differed
 * @param differingRows  rows found different (a row differing on two replicas counts once)
 * @param rows           those rows, the first {@link TableVerifier#MAX_ROWS_LISTED} of them
 * @param rowCounts      rows each replica holds, by backend name
 * @param minority       the replicas a majority outvoted on some row or on the whole table
 * @param notes          what the reader should know (columns compared by engine text only, replicas left out)
 * @param problem        why the table could not be compared; empty when it was
 */
public record TableReport(String table, List<String> backends, long position, long rowsCompared, int chunks,
                          boolean keyed, List<RangeDifference> ranges, long differingRows, List<RowDifference> rows,
                          Map<String, Long> rowCounts, List<String> minority, List<String> notes, String problem) {
    public TableReport {
        backends = List.copyOf(backends);
        ranges = List.copyOf(ranges);
        rows = List.copyOf(rows);
        rowCounts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(rowCounts));
        minority = List.copyOf(minority);
        notes = List.copyOf(notes);
    }

    /** A table that could not be compared. */
    static TableReport failed(String table, List<String> backends, String problem) {
        return new TableReport(table, backends, -1, 0, 0, false, List.of(), 0, List.of(), Map.of(), List.of(),
                List.of(), problem);
    }

    /** Whether the replicas were compared and hold the same rows. */
    public boolean identical() {
        return problem.isEmpty() && ranges.isEmpty();
    }
}
