package org.phalanx.requestmanager.analysis;

import java.util.Set;

/**
 * What a DDL statement does to the set of tables, which partial replication must follow.
 *
 * @param table   the table (or view) created, dropped, altered, renamed, indexed or truncated
 * @param newName the new name for RENAME, else null
 * @param sources tables a CREATE TABLE ... AS SELECT or CREATE VIEW reads (every backend that
 *                gets the new table must hold them)
 */
public record DdlEffect(Type type, String table, String newName, Set<String> sources) {

    public enum Type {
        CREATE_TABLE, CREATE_VIEW, DROP, ALTER, RENAME, ON_TABLE
    }
}
