package org.phalanx.requestmanager.analysis;

import java.util.Set;

/**
 * What the analyser found in one SQL text. Immutable and shared by every execution of that text.
 *
 * @param writtenTables tables a write may change (lower case, unquoted, schema-qualified if
 *                      written so); empty with {@code allTables}
 * @param allTables     the statement may touch any table (DDL, or not understood)
 * @param parsed        false when JSqlParser could not read it and we assumed the worst
 * @param hasMacros     contains NOW(), CURRENT_TIMESTAMP, RAND()... that must be rewritten
 *                      before it is sent to several backends
 * @param ddl           for DDL the parser understood: its effect on the set of tables, else null
 * @param footprint     what a read reads / a write changes, table by table, for the result
 *                      cache; null when unknown (the cache then works per table)
 * @param engineDependent its result may differ from one engine to another: a division (integer
 *                      division, division by zero) or interval arithmetic
 * @param sharedLocks   a locking read that takes shared row locks ({@code FOR SHARE}, {@code FOR KEY
 *                      SHARE}, MariaDB's {@code LOCK IN SHARE MODE}): it runs where a write does, but
 *                      conflicts only with writes, not with other such reads
 */
public record SqlAnalysis(StatementKind kind, Set<String> readTables, Set<String> writtenTables,
                          boolean allTables, boolean parsed, boolean hasMacros, DdlEffect ddl, Footprint footprint,
                          boolean engineDependent, boolean sharedLocks) {

    public SqlAnalysis(StatementKind kind, Set<String> readTables, Set<String> writtenTables,
                       boolean allTables, boolean parsed, boolean hasMacros, DdlEffect ddl, Footprint footprint) {
        this(kind, readTables, writtenTables, allTables, parsed, hasMacros, ddl, footprint, false, false);
    }

    public SqlAnalysis(StatementKind kind, Set<String> readTables, Set<String> writtenTables,
                       boolean allTables, boolean parsed, boolean hasMacros) {
        this(kind, readTables, writtenTables, allTables, parsed, hasMacros, null, null);
    }

    public SqlAnalysis(StatementKind kind, Set<String> readTables, Set<String> writtenTables,
                       boolean allTables, boolean parsed, boolean hasMacros, DdlEffect ddl) {
        this(kind, readTables, writtenTables, allTables, parsed, hasMacros, ddl, null);
    }

    /** The statement taken as a write that may touch any table: run on every backend, in the total order, never cached. */
    public SqlAnalysis asUnboundedWrite() {
        return new SqlAnalysis(StatementKind.WRITE, readTables, Set.of(), true, parsed, hasMacros, null, null, engineDependent,
                false);
    }

    SqlAnalysis withMacros() {
        return new SqlAnalysis(kind, readTables, writtenTables, allTables, parsed, true, ddl, footprint, engineDependent,
                sharedLocks);
    }

    SqlAnalysis withFootprint(Footprint f) {
        return new SqlAnalysis(kind, readTables, writtenTables, allTables, parsed, hasMacros, ddl, f, engineDependent,
                sharedLocks);
    }

    SqlAnalysis asEngineDependent() {
        return new SqlAnalysis(kind, readTables, writtenTables, allTables, parsed, hasMacros, ddl, footprint, true,
                sharedLocks);
    }

    SqlAnalysis withSharedLocks() {
        return new SqlAnalysis(kind, readTables, writtenTables, allTables, parsed, hasMacros, ddl, footprint, engineDependent,
                true);
    }
}
