package org.phalanx.driver;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

import org.phalanx.protocol.ColumnInfo;

/** ResultSetMetaData straight from the ColumnInfo the controller sent with the result. */
public final class PhalanxResultSetMetaData implements ResultSetMetaData {
    private final List<ColumnInfo> columns;

    PhalanxResultSetMetaData(List<ColumnInfo> columns) {
        this.columns = columns;
    }

    private ColumnInfo column(int column) throws SQLException {
        if (column < 1 || column > columns.size()) {
            throw SqlExceptions.create("column index " + column + " is out of range 1.." + columns.size(),
                    SqlExceptions.INVALID_DESCRIPTOR_INDEX);
        }
        return columns.get(column - 1);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        return column(column).autoIncrement();
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return switch (column(column).jdbcType()) {
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR,
                    Types.CLOB, Types.NCLOB -> true;
            default -> false;
        };
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return column(column).nullable();
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return column(column).signed();
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        return column(column).displaySize();
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        ColumnInfo c = column(column);
        return c.label() != null ? c.label() : orEmpty(c.name());
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        ColumnInfo c = column(column);
        return c.name() != null ? c.name() : orEmpty(c.label());
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        return orEmpty(column(column).schema());
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return column(column).precision();
    }

    @Override
    public int getScale(int column) throws SQLException {
        return column(column).scale();
    }

    @Override
    public String getTableName(int column) throws SQLException {
        return orEmpty(column(column).table());
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        return orEmpty(column(column).catalog());
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return column(column).jdbcType();
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return orEmpty(column(column).typeName());
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        ColumnInfo c = column(column);
        return c.className() != null && !c.className().isEmpty() ? c.className() : Object.class.getName();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SqlExceptions.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
