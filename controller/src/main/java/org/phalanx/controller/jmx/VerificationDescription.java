package org.phalanx.controller.jmx;

import java.util.List;
import org.phalanx.requestmanager.verify.RangeDifference;
import org.phalanx.requestmanager.verify.RowDifference;
import org.phalanx.requestmanager.verify.TableReport;
import org.phalanx.requestmanager.verify.VerificationReport;

/**
 * A replica verification's report as management shows it (open data: any JMX client reads it).
 *
 * @param started       when it started (ISO-8601)
 * @param rowsCompared  rows read on the reference replicas
 * @param onDifference  report, disable or rebuild
 * @param differences   rows found different (plus one per differing table without a primary key)
 * @param minority      the replicas a majority outvoted
 * @param actions       what was done about them, one line each
 * @param tables        each table's comparison
 */
public record VerificationDescription(String virtualDatabase, String started, long millis, long rowsCompared,
                                      long rowsPerSecond, String onDifference, long differences, String[] minority,
                                      String[] actions, TableVerification[] tables) {

    /**
     * One table's comparison.
     *
     * @param backends  the replicas compared (the first gave the chunk bounds)
     * @param position  the write order's position they were compared at (-1: not compared)
     * @param ranges    differing chunks: {@code id > 1000 AND id <= 2000: b1=1000 b2=1000 b3=999}
     * @param rows      differing rows: {@code id=1234 CHANGED on b3}, {@code id=7 CHANGED on b1, b2 (no majority)}
     * @param rowCounts rows per replica: {@code b1=3000}
     * @param problem   why it could not be compared; empty when it was
     */
    public record TableVerification(String table, String[] backends, long position, long rowsCompared, int chunks,
                                    boolean keyed, String[] ranges, long differingRows, String[] rows,
                                    String[] rowCounts, String[] minority, String[] notes, String problem) {
    }

    static VerificationDescription of(VerificationReport r) {
        return new VerificationDescription(r.virtualDatabase(), r.started(), r.millis(), r.rowsCompared(),
                r.rowsPerSecond(), r.onDifference().name().toLowerCase(java.util.Locale.ROOT), r.differences(),
                strings(r.minority()), strings(r.actions()),
                r.tables().stream().map(VerificationDescription::table).toArray(TableVerification[]::new));
    }

    private static TableVerification table(TableReport t) {
        return new TableVerification(t.table(), strings(t.backends()), t.position(), t.rowsCompared(), t.chunks(),
                t.keyed(), t.ranges().stream().map(VerificationDescription::range).toArray(String[]::new),
                t.differingRows(), t.rows().stream().map(VerificationDescription::row).toArray(String[]::new),
                t.rowCounts().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new),
                strings(t.minority()), strings(t.notes()), t.problem());
    }

    /** {@code id > 1000 AND id <= 2000: b1=1000 b2=999}. */
    static String range(RangeDifference d) {
        StringBuilder b = new StringBuilder(d.range()).append(':');
        d.rowCounts().forEach((name, rows) -> b.append(' ').append(name).append('=').append(rows));
        return b.toString();
    }

    /** {@code id=1234 CHANGED on b3}, or {@code ... on b1, b2 (no majority)}. */
    static String row(RowDifference d) {
        return d.key() + " " + d.kind() + " on " + String.join(", ", d.backends()) + (d.decided() ? "" : " (no majority)");
    }

    private static String[] strings(List<String> list) {
        return list.toArray(String[]::new);
    }
}
