package org.phalanx.recoverylog;

import org.phalanx.engine.Engine;

/**
 * The column types and table options the JDBC log uses on an engine. Chosen from the database's
 * engine; give one explicitly for an engine not listed here.
 *
 * @param bigint       a 64-bit integer type
 * @param text         an unbounded text type
 * @param binary       an unbounded binary type
 * @param tableOptions appended to each CREATE TABLE (e.g. the MariaDB engine and charset)
 */
public record JdbcLogSchema(String bigint, String text, String binary, String tableOptions) {

    public static final JdbcLogSchema SQLITE = new JdbcLogSchema("BIGINT", "TEXT", "BLOB", "");
    public static final JdbcLogSchema POSTGRESQL = new JdbcLogSchema("BIGINT", "TEXT", "BYTEA", "");
    /** utf8mb4 with a binary collation: any Unicode text, compared exactly as the other engines do. */
    public static final JdbcLogSchema MARIADB = new JdbcLogSchema("BIGINT", "LONGTEXT", "LONGBLOB",
            " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
    /** Standard SQL types (H2, HSQLDB, Derby-like engines). */
    public static final JdbcLogSchema STANDARD = new JdbcLogSchema("BIGINT", "CLOB", "BLOB", "");

    /** The schema for an engine; {@link #STANDARD} for one not listed here. */
    public static JdbcLogSchema of(Engine engine) {
        return switch (engine) {
            case SQLITE -> SQLITE;
            case POSTGRESQL -> POSTGRESQL;
            case MARIADB -> MARIADB;
            case PHALANX, OTHER -> STANDARD;
        };
    }
}
