package org.phalanx.requestmanager.analysis;

import java.util.Map;
import java.util.Set;

/**
 * How the rows a read returns map to the rows of one of its tables, when they do one to one: a
 * plain SELECT (no subquery, grouping, aggregate or DISTINCT) that names the table once and whose
 * select list is plain columns.
 *
 * <p>Then a write that changes no column in {@code selectedBy} and is restricted to
 * {@code column = value}, where the read shows {@code column}, changes the read's result only if
 * the result holds a row with that value in that column: which rows are read, and in what order,
 * does not depend on what the write changes.
 *
 * @param shownAt    column of the table to its 0-based position in each result row
 * @param selectedBy columns of the table that decide which rows are returned and in what order
 *                   (WHERE, JOIN ... ON, ORDER BY)
 */
public record RowIdentity(Map<String, Integer> shownAt, Set<String> selectedBy) {
}
