package org.phalanx.requestmanager.verify;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a verification found: each table's comparison, how long it took, and what was done about
 * the differences.
 *
 * @param virtualDatabase its name
 * @param started         when it started (ISO-8601)
 * @param millis          how long it took
 * @param rowsCompared    rows read on the reference replicas
 * @param rowsPerSecond   rowsCompared over the time taken
 * @param onDifference    what it was asked to do about differences
 * @param tables          each table's comparison, in the order compared
 * @param actions         what was done (backends disabled or rebuilt), one line each; empty for none
 */
public record VerificationReport(String virtualDatabase, String started, long millis, long rowsCompared,
                                 long rowsPerSecond, OnDifference onDifference, List<TableReport> tables,
                                 List<String> actions) {
    public VerificationReport {
        tables = List.copyOf(tables);
        actions = List.copyOf(actions);
    }

    /** Rows found different, plus one per differing table without a primary key. */
    public long differences() {
        long n = 0;
        for (TableReport t : tables) {
            n += t.keyed() ? t.differingRows() : t.ranges().size();
        }
        return n;
    }

    /** Tables that could not be compared. */
    public long problems() {
        return tables.stream().filter(t -> !t.problem().isEmpty()).count();
    }

    /** The replicas a majority outvoted on any table. */
    public List<String> minority() {
        Set<String> names = new LinkedHashSet<>();
        tables.forEach(t -> names.addAll(t.minority()));
        return List.copyOf(names);
    }

    /** Whether every table was compared and found identical. */
    public boolean identical() {
        return tables.stream().allMatch(TableReport::identical);
    }
}
