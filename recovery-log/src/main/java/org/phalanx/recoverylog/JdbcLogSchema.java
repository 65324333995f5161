package org.phalanx.recoverylog;

import java.util.Locale;

/**
 * The column types and table options the JDBC log uses on an engine. Chosen from the database
 * product name; give one explicitly for an engine not listed here.
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

    /** The schema for a database product name as {@link java.sql.DatabaseMetaData} reports it. */
    public static JdbcLogSchema forProduct(String productName) {
        String p = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (p.contains("sqlite")) {
            return SQLITE;
        }
        if (p.contains("postgres")) {
            return POSTGRESQL;
        }
        if (p.contains("mariadb") || p.contains("mysql")) {
            return MARIADB;
        }
        return STANDARD;
    }
}
