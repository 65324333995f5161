package org.phalanx.requestmanager.analysis;

import java.util.List;
import java.util.Set;

/**
 * What a statement touches in one table, for precise cache invalidation.
 *
 * <p>For a read: the columns it uses anywhere (select list, WHERE, joins, ORDER BY...; null when
 * unknown or all, e.g. {@code SELECT *}), and the top-level {@code column = value} equalities
 * that restrict which rows it reads (empty when none can be proven, e.g. joins, OR, ranges).
 *
 * <p>For a write: the columns it changes (UPDATE's SET list; null for INSERT, DELETE and
 * anything not understood, meaning every column), whether it adds or removes rows (INSERT,
 * DELETE, REPLACE, MERGE: true), and the equalities that every affected row satisfies (an
 * UPDATE/DELETE's top-level WHERE equalities, a one-row INSERT's values).
 *
 * <p>A read may also say how its result rows map to the table's rows ({@code rows}, null when
 * they do not map one to one or the analysis cannot tell).
 *
 * @param table lower case, unqualified
 */
public record TableFootprint(String table, Set<String> columns, List<KeyValue> keys, boolean rowsChange,
                             RowIdentity rows) {

    public TableFootprint(String table, Set<String> columns, List<KeyValue> keys, boolean rowsChange) {
        this(table, columns, keys, rowsChange, null);
    }
}
