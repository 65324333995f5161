package org.phalanx.requestmanager.api;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Result metadata copied from a backend's ({@link RowReader#detach}), which outlives the backend
 * result: a cached result, the rows a write returned ({@code SELECT ... FOR UPDATE},
 * {@code RETURNING}), or what the results of a statement look like, kept for its next runs
 * ({@code exec.ResultDescriptions}). A plain copy: {@code RowSetMetaDataImpl}, used before, checked
 * each column type by reflection over {@code java.sql.Types}, a few per cent of the controller's CPU
 * under TPC-C. What the copy does not keep reads as {@code RowSetMetaDataImpl}'s defaults did; a
 * column's class name is the driver's, or one that goes with its type when the driver gave none.
 */
final class DetachedMetaData implements ResultSetMetaData {
    record Column(String label, String name, String table, String schema, String catalog, int type, String typeName,
                  int precision, int scale, int nullable, boolean autoIncrement, boolean signed, int displaySize,
                  String className) {
    }

    private final Column[] columns;

    DetachedMetaData(Column[] columns) {
        this.columns = columns;
    }

    private Column column(int column) throws SQLException {
        if (column < 1 || column > columns.length) {
            throw new SQLException("no column " + column + " (the result has " + columns.length + ")", "07009");
        }
        return columns[column - 1];
    }

    @Override
    public int getColumnCount() {
        return columns.length;
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        return column(column).autoIncrement();
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        column(column);
        return false;
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
        return column(column).label();
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        return column(column).name();
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        return column(column).schema();
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
        return column(column).table();
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        return column(column).catalog();
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return column(column).type();
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return column(column).typeName();
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    /** By the column's JDBC type, as {@code RowSetMetaDataImpl} told it (text for the types it does not name). */
    @Override
    public String getColumnClassName(int column) throws SQLException {
        Column c = column(column);
        if (c.className() != null) {
            return c.className(); // as the driver said
        }
        return switch (c.type()) {
            case Types.NUMERIC, Types.DECIMAL -> java.math.BigDecimal.class.getName();
            case Types.BIT -> Boolean.class.getName();
            case Types.TINYINT -> Byte.class.getName();
            case Types.SMALLINT -> Short.class.getName();
            case Types.INTEGER -> Integer.class.getName();
            case Types.BIGINT -> Long.class.getName();
            case Types.REAL -> Float.class.getName();
            case Types.FLOAT, Types.DOUBLE -> Double.class.getName();
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> "byte[]";
            case Types.DATE -> java.sql.Date.class.getName();
            case Types.TIME -> java.sql.Time.class.getName();
            case Types.TIMESTAMP -> java.sql.Timestamp.class.getName();
            case Types.BLOB -> java.sql.Blob.class.getName();
            case Types.CLOB -> java.sql.Clob.class.getName();
            default -> String.class.getName();
        };
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
