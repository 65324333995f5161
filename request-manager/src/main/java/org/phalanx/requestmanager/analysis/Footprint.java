package org.phalanx.requestmanager.analysis;

import java.util.List;

/**
 * What a statement reads or writes, table by table, for the result cache. Null in
 * {@link SqlAnalysis} when the analyser could not work it out: the cache then treats the
 * statement at table granularity (or, for a write, invalidates every table it names or
 * everything).
 *
 * @param tables one footprint per table the statement reads (for a read) or writes (for a write)
 */
public record Footprint(List<TableFootprint> tables) {
}
