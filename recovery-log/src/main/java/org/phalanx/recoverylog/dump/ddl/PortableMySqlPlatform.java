package org.phalanx.recoverylog.dump.ddl;

import java.io.IOException;
import java.sql.Types;
import java.util.Map;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.ForeignKey;
import org.apache.ddlutils.model.Table;
import org.apache.ddlutils.platform.mysql.MySql50Platform;
import org.apache.ddlutils.platform.mysql.MySqlBuilder;

/**
 * DdlUtils' MySQL 5 platform (used for MariaDB) with the builder fixed for restores:
 * <ul>
 * <li>timestamps and times keep microseconds ({@code DATETIME(6)}, {@code TIME(6)}; plain
 *     DATETIME would truncate them);</li>
 * <li>unbounded text and binary are LONGTEXT/LONGBLOB (DdlUtils' MEDIUM* stop at 16 MB);</li>
 * <li>a DECIMAL without precision (arbitrary on PostgreSQL and SQLite) becomes
 *     {@code DECIMAL(65,30)} rather than MySQL's default {@code DECIMAL(10,0)}, which would drop
 *     every fraction;</li>
 * <li>every table is InnoDB in utf8mb4 with a binary collation, so any Unicode text fits and
 *     keys compare exactly as on PostgreSQL and SQLite ('a' and 'A' are different keys);</li>
 * <li>portable current-time defaults print as SQL, boolean defaults as {@code true}/{@code false}.</li>
 * </ul>
 * Unbounded text used in a key must be given a bounded VARCHAR before building (MariaDB cannot
 * index TEXT without a prefix); the portable backuper does that from the lengths it measured.
 */
public class PortableMySqlPlatform extends MySql50Platform {
    public static final String NAME = "PhalanxMySql";
    /** The table options every created table gets, unless the dump recorded its MariaDB source table's collation. */
    public static final String TABLE_OPTIONS = " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    /**
     * The parameter of {@code createTable} naming the collation of a table dumped from MariaDB: a table
     * restored onto MariaDB keeps it (its charset is the collation's prefix), so the restored replica
     * compares text as its source did ('ac-1' = 'AC-1' under utf8mb4_general_ci, not under the binary one).
     */
    public static final String COLLATION = "phalanx.collation";

    public PortableMySqlPlatform() {
        setSqlBuilder(new Builder(this));
    }

    @Override
    public String getName() {
        return NAME;
    }

    static final class Builder extends MySqlBuilder implements ForeignKeyRules.Aware {
        private final ForeignKeyRules rules = new ForeignKeyRules();

        @Override
        public ForeignKeyRules foreignKeyRules() {
            return rules;
        }

        @Override
        protected void writeForeignReferences(ForeignKey key) throws IOException {
            super.writeForeignReferences(key);
            rules.referencesWritten(key);
        }

        @Override
        protected void print(String text) throws IOException {
            super.print(rules.beforePrint(text));
        }

        Builder(MySql50Platform platform) {
            super(platform);
        }

        @Override
        protected String getSqlType(Column column) {
            return switch (column.getTypeCode()) {
                case Types.TIMESTAMP -> "DATETIME(6)";
                case Types.TIME -> "TIME(6)";
                case Types.LONGVARCHAR -> "LONGTEXT"; // MEDIUMTEXT/MEDIUMBLOB would stop at 16 MB
                case Types.LONGVARBINARY -> "LONGBLOB";
                case Types.DECIMAL, Types.NUMERIC -> column.getSizeAsInt() <= 0 ? "DECIMAL(65,30)" : super.getSqlType(column);
                default -> super.getSqlType(column);
            };
        }

        @Override
        protected void writeTableCreationStmtEnding(Table table, @SuppressWarnings("rawtypes") Map parameters)
                throws IOException {
            Object collation = parameters == null ? null : parameters.get(COLLATION);
            print(collation == null ? TABLE_OPTIONS : " ENGINE=InnoDB DEFAULT CHARSET="
                    + collation.toString().split("_", 2)[0] + " COLLATE=" + collation);
            java.util.Map<Object, Object> others = new java.util.LinkedHashMap<>();
            if (parameters != null) {
                parameters.forEach((k, v) -> others.put(k, v));
                others.remove(COLLATION); // ours, not a table option DdlUtils would print as it is
            }
            super.writeTableCreationStmtEnding(table, others);
        }

        @Override
        protected void writeColumnDefaultValueStmt(Table table, Column column) throws IOException {
            String sql = Builders.defaultSql(column, Builders.MARIADB);
            if (sql != null) {
                print(" DEFAULT " + sql);
            }
        }
    }
}
