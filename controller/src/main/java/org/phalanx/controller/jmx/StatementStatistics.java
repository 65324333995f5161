package org.phalanx.controller.jmx;

/**
 * SQL statistics of one statement template, as management shows it.
 *
 * @param template  the statement with its literals replaced by {@code ?}
 * @param meanMicros mean time to execute (until its first rows are ready, for a read)
 */
public record StatementStatistics(String template, long count, long errors, long cacheHits, long meanMicros,
                                  long maxMicros) {
}
