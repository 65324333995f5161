package org.phalanx.controller.result;

import org.phalanx.protocol.ColumnInfo;
import org.phalanx.requestmanager.api.RowReader;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns ResultSetMetaData into the protocol's {@link ColumnInfo}s. Drivers leave parts of
 * ResultSetMetaData unimplemented or throw on some columns (SQLite on expressions, for one), so
 * every call is guarded and falls back to a neutral value; only the column count is essential.
 */
public final class ColumnDescriber {

    private ColumnDescriber() {
    }

    public static List<ColumnInfo> describe(ResultSetMetaData md) throws SQLException {
        int count = md.getColumnCount();
        List<ColumnInfo> columns = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            String name = guard(md::getColumnName, i, "");
            String label = guard(md::getColumnLabel, i, name);
            columns.add(new ColumnInfo(
                    label,
                    name,
                    guard(md::getTableName, i, ""),
                    guard(md::getSchemaName, i, ""),
                    guard(md::getCatalogName, i, ""),
                    guard(md::getColumnType, i, Types.OTHER),
                    guard(md::getColumnTypeName, i, ""),
                    guard(md::getPrecision, i, 0),
                    guard(md::getScale, i, 0),
                    guard(md::isNullable, i, ResultSetMetaData.columnNullableUnknown),
                    guard(md::isAutoIncrement, i, false),
                    guard(md::isSigned, i, false),
                    guard(md::getColumnDisplaySize, i, 0),
                    guard(md::getColumnClassName, i, Object.class.getName())));
        }
        return columns;
    }

    /** The jdbcType of each column, for {@link org.phalanx.requestmanager.api.RowReader}. */
    public static int[] jdbcTypes(List<ColumnInfo> columns) {
        return columns.stream().mapToInt(c -> RowReader.readAs(c.jdbcType(), c.typeName(), c.precision())).toArray();
    }

    @FunctionalInterface
    private interface ColumnProperty<T> {
        T get(int column) throws SQLException;
    }

    private static <T> T guard(ColumnProperty<T> property, int column, T fallback) {
        try {
            T value = property.get(column);
            return value == null ? fallback : value;
        } catch (SQLException | RuntimeException e) {
            return fallback;
        }
    }
}
