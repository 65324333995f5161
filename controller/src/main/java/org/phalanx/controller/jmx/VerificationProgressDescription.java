package org.phalanx.controller.jmx;

/**
 * A running verification as management shows it: the table being compared, and rows compared of
 * the estimated total (the tables' row counts on their reference replicas).
 */
public record VerificationProgressDescription(String started, String table, int tablesDone, int tables,
                                              long rowsDone, long rowsTotal) {
}
