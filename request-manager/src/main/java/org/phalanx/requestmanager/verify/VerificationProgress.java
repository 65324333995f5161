package org.phalanx.requestmanager.verify;

/**
 * A running verification as management sees it.
 *
 * @param started     when it started (ISO-8601)
 * @param table       the table being compared
 * @param tablesDone  tables finished
 * @param tables      tables to compare
 * @param rowsDone    rows compared so far
 * @param rowsTotal   rows to compare, estimated from each table's row count on its reference replica
 */
public record VerificationProgress(String started, String table, int tablesDone, int tables, long rowsDone,
                                   long rowsTotal) {
}
