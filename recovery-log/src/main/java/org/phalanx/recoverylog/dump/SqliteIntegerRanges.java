package org.phalanx.recoverylog.dump;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.Database;
import org.apache.ddlutils.model.Table;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.Engine;

/**
 * Widens SQLite integer columns to the values they hold. SQLite stores every integer in up to 64
 * bits whatever the column was declared ({@code INTEGER PRIMARY KEY} is the 64-bit rowid), while
 * INTEGER is 32 bits on PostgreSQL and MariaDB: a dump that kept the declared type of a column
 * holding 3,000,000,000 could not be restored there. So a TINYINT, SMALLINT or INTEGER column
 * whose values do not fit is dumped as the narrowest type that holds them (one MIN/MAX query per
 * table, counting integer values only: others fail the dump when read, naming the value).
 */
final class SqliteIntegerRanges {
    private static final Logger LOG = LogManager.getLogger(SqliteIntegerRanges.class);
    /** Narrowest first. */
    private static final int[] BY_RANK = {Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT};
    private static final String[] NAMES = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT"};

    private SqliteIntegerRanges() {
    }

    static void widen(Connection c, Database db) throws SQLException {
        for (Table table : db.getTables()) {
            List<Column> narrow = new ArrayList<>();
            for (Column column : table.getColumns()) {
                if (rankOf(column.getTypeCode()) < BY_RANK.length - 1) {
                    narrow.add(column);
                }
            }
            if (!narrow.isEmpty()) {
                widen(c, table, narrow);
            }
        }
    }

    private static void widen(Connection c, Table table, List<Column> columns) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            String v = "CASE WHEN typeof(" + quote(columns.get(i)) + ") = 'integer' THEN " + quote(columns.get(i)) + " END";
            sql.append(i == 0 ? "" : ", ").append("MIN(").append(v).append("), MAX(").append(v).append(')');
        }
        sql.append(" FROM ").append(SqlIdentifiers.quote(Engine.SQLITE, table.getName()));
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql.toString())) {
            rs.next();
            for (int i = 0; i < columns.size(); i++) {
                long min = rs.getLong(2 * i + 1);
                long max = rs.getLong(2 * i + 2);
                Column column = columns.get(i);
                int needed = Math.max(rank(min), rank(max));
                if (needed > rankOf(column.getTypeCode())) {
                    LOG.info("SQLite column {}.{} is declared {} but holds values from {} to {}: dumped as {}",
                            table.getName(), column.getName(), column.getType(), min, max, NAMES[needed]);
                    column.setTypeCode(BY_RANK[needed]);
                }
            }
        }
    }

    /** The index in {@link #BY_RANK} of the narrowest type holding {@code v}. */
    private static int rank(long v) {
        if (v == (byte) v) {
            return 0;
        }
        if (v == (short) v) {
            return 1;
        }
        return v == (int) v ? 2 : 3;
    }

    private static int rankOf(int typeCode) {
        for (int i = 0; i < BY_RANK.length; i++) {
            if (BY_RANK[i] == typeCode) {
                return i;
            }
        }
        return BY_RANK.length;
    }

    private static String quote(Column column) {
        return SqlIdentifiers.quote(Engine.SQLITE, column.getName());
    }
}
