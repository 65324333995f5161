package org.phalanx.requestmanager.hetero;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Locale;
import javax.sql.rowset.RowSetMetaDataImpl;
import org.phalanx.recoverylog.dump.ddl.SqliteTypes;
import org.phalanx.engine.Engine;

/**
 * The one description a result column gets whichever engine served it (see docs/heterogeneous.md
 * for the table). A column of a table keeps its declared kind (a SQLite column by its declared type
 * name, since sqlite-jdbc reports some, TIME for one, as NUMERIC); an expression gets the widest
 * member of its family, since engines type them differently (COUNT(*) is INTEGER on SQLite,
 * BIGINT elsewhere; SUM is DECIMAL on MariaDB). Precision, display size and nullability come
 * from the kind, not from the engine; labels and names are in lower case, as PostgreSQL folds
 * unquoted identifiers.
 */
final class CanonicalColumns {
    private CanonicalColumns() {
    }

    /** The canonical metadata of a backend result's columns. */
    static RowSetMetaDataImpl of(ResultSetMetaData md, Engine engine) throws SQLException {
        int n = md.getColumnCount();
        RowSetMetaDataImpl out = new Canonical();
        out.setColumnCount(n);
        for (int i = 1; i <= n; i++) {
            String table = lower(guard(md, i, Property.TABLE));
            boolean fromTable = !table.isEmpty();
            int reported = guardInt(md, i, Property.TYPE);
            int precision = guardInt(md, i, Property.PRECISION);
            int scale = guardInt(md, i, Property.SCALE);
            if (engine == Engine.SQLITE && fromTable) {
                // sqlite-jdbc names the type without its size ("VARCHAR") but reports the declared size
                String typeName = guard(md, i, Property.TYPE_NAME);
                if (!typeName.contains("(") && precision > 0) {
                    typeName += "(" + precision + (scale > 0 ? "," + scale : "") + ")";
                }
                SqliteTypes.Mapped declared = SqliteTypes.map(typeName);
                reported = declared.typeCode();
                precision = declared.size() == null ? precision : declared.size();
                scale = declared.scale() == null ? scale : declared.scale();
            }
            int type = kind(fromTable, reported, precision, scale);
            // a generated key is BIGINT on every engine, as getGeneratedKeys() returns it (SQLite's
            // must be declared INTEGER to be the rowid, whatever width the portable DDL gave it)
            boolean generated = fromTable && isInteger(type) && guardInt(md, i, Property.AUTO_INCREMENT) == 1;
            if (generated) {
                type = Types.BIGINT;
            }
            out.setColumnLabel(i, lower(guard(md, i, Property.LABEL)));
            out.setColumnName(i, lower(guard(md, i, Property.NAME)));
            out.setTableName(i, table);
            out.setSchemaName(i, "");
            out.setCatalogName(i, "");
            out.setColumnType(i, type);
            out.setColumnTypeName(i, typeName(type));
            out.setPrecision(i, precision(type, precision));
            out.setScale(i, type == Types.DECIMAL ? Math.max(0, scale) : 0);
            out.setColumnDisplaySize(i, displaySize(type, precision(type, precision), scale));
            out.setNullable(i, fromTable ? guardInt(md, i, Property.NULLABLE) : ResultSetMetaData.columnNullableUnknown);
            out.setAutoIncrement(i, generated);
            out.setSigned(i, isNumber(type));
            out.setCurrency(i, false);
            out.setSearchable(i, true);
            out.setCaseSensitive(i, type == Types.VARCHAR || type == Types.LONGVARCHAR);
        }
        return out;
    }

    /** Metadata whose Java class names are those of the values the row reader produces for each type. */
    private static final class Canonical extends RowSetMetaDataImpl {
        @Override
        public String getColumnClassName(int column) throws SQLException {
            return switch (getColumnType(column)) {
                case Types.BOOLEAN -> Boolean.class.getName();
                case Types.SMALLINT, Types.INTEGER -> Integer.class.getName();
                case Types.BIGINT -> Long.class.getName();
                case Types.DECIMAL -> java.math.BigDecimal.class.getName();
                case Types.DOUBLE -> Double.class.getName();
                case Types.VARCHAR, Types.LONGVARCHAR -> String.class.getName();
                case Types.LONGVARBINARY -> byte[].class.getName();
                case Types.DATE -> java.sql.Date.class.getName();
                case Types.TIME -> java.sql.Time.class.getName();
                case Types.TIMESTAMP -> java.sql.Timestamp.class.getName();
                default -> super.getColumnClassName(column);
            };
        }
    }

    /** The canonical JDBC type of a column, from what its engine reports (a SQLite column: its declared type). */
    static int kind(boolean fromTable, int reported, int precision, int scale) {
        switch (reported) {
            case Types.BOOLEAN:
                return Types.BOOLEAN;
            case Types.BIT:
                return precision <= 1 ? Types.BOOLEAN : Types.LONGVARBINARY;
            case Types.TINYINT:
            case Types.SMALLINT:
                return fromTable ? Types.SMALLINT : Types.BIGINT;
            case Types.INTEGER:
                return fromTable ? Types.INTEGER : Types.BIGINT;
            case Types.BIGINT:
                return Types.BIGINT;
            case Types.DECIMAL:
            case Types.NUMERIC:
                // MariaDB's SUM of integers is DECIMAL(n,0): an integer, as on the other engines
                return !fromTable && scale == 0 && precision > 0 ? Types.BIGINT : Types.DECIMAL;
            case Types.REAL:
            case Types.FLOAT:
            case Types.DOUBLE:
                return Types.DOUBLE;
            case Types.CHAR:
            case Types.VARCHAR:
            case Types.NCHAR:
            case Types.NVARCHAR:
                return precision > 0 && precision <= 65535 ? Types.VARCHAR : Types.LONGVARCHAR;
            case Types.LONGVARCHAR:
            case Types.LONGNVARCHAR:
            case Types.CLOB:
            case Types.NCLOB:
                return Types.LONGVARCHAR;
            case Types.BINARY:
            case Types.VARBINARY:
            case Types.LONGVARBINARY:
            case Types.BLOB:
                return Types.LONGVARBINARY;
            case Types.DATE:
                return Types.DATE;
            case Types.TIME:
            case Types.TIME_WITH_TIMEZONE:
                return Types.TIME;
            case Types.TIMESTAMP:
                return Types.TIMESTAMP;
            default:
                return reported;
        }
    }

    static String typeName(int type) {
        return switch (type) {
            case Types.BOOLEAN -> "BOOLEAN";
            case Types.SMALLINT -> "SMALLINT";
            case Types.INTEGER -> "INTEGER";
            case Types.BIGINT -> "BIGINT";
            case Types.DECIMAL -> "DECIMAL";
            case Types.DOUBLE -> "DOUBLE";
            case Types.VARCHAR -> "VARCHAR";
            case Types.LONGVARCHAR -> "TEXT";
            case Types.LONGVARBINARY -> "BLOB";
            case Types.DATE -> "DATE";
            case Types.TIME -> "TIME";
            case Types.TIMESTAMP -> "TIMESTAMP";
            default -> "OTHER";
        };
    }

    private static int precision(int type, int reported) {
        return switch (type) {
            case Types.BOOLEAN -> 1;
            case Types.SMALLINT -> 5;
            case Types.INTEGER -> 10;
            case Types.BIGINT -> 19;
            case Types.DOUBLE -> 15;
            case Types.DATE -> 10;
            case Types.TIME -> 8;
            case Types.TIMESTAMP -> 23;
            case Types.DECIMAL, Types.VARCHAR -> Math.max(0, reported);
            default -> Integer.MAX_VALUE;
        };
    }

    private static int displaySize(int type, int precision, int scale) {
        return switch (type) {
            case Types.BOOLEAN -> 5;
            case Types.SMALLINT -> 6;
            case Types.INTEGER -> 11;
            case Types.BIGINT -> 20;
            case Types.DOUBLE -> 24;
            case Types.DECIMAL -> precision == 0 ? 131089 : precision + 2;
            default -> precision;
        };
    }

    private static boolean isNumber(int type) {
        return type == Types.SMALLINT || type == Types.INTEGER || type == Types.BIGINT || type == Types.DECIMAL
                || type == Types.DOUBLE;
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private static boolean isInteger(int type) {
        return type == Types.SMALLINT || type == Types.INTEGER || type == Types.BIGINT;
    }

    private enum Property { TABLE, TYPE, TYPE_NAME, PRECISION, SCALE, LABEL, NAME, NULLABLE, AUTO_INCREMENT }

    /** Drivers throw on some properties of some columns: a neutral value then. */
    private static String guard(ResultSetMetaData md, int i, Property p) {
        try {
            String v = switch (p) {
                case TABLE -> md.getTableName(i);
                case TYPE_NAME -> md.getColumnTypeName(i);
                case LABEL -> md.getColumnLabel(i);
                case NAME -> md.getColumnName(i);
                default -> throw new IllegalArgumentException(p.toString());
            };
            return v == null ? "" : v;
        } catch (SQLException | RuntimeException e) {
            return "";
        }
    }

    private static int guardInt(ResultSetMetaData md, int i, Property p) {
        try {
            return switch (p) {
                case TYPE -> md.getColumnType(i);
                case PRECISION -> md.getPrecision(i);
                case SCALE -> md.getScale(i);
                case NULLABLE -> md.isNullable(i);
                case AUTO_INCREMENT -> md.isAutoIncrement(i) ? 1 : 0;
                default -> throw new IllegalArgumentException(p.toString());
            };
        } catch (SQLException | RuntimeException e) {
            return p == Property.TYPE ? Types.OTHER : p == Property.NULLABLE ? ResultSetMetaData.columnNullableUnknown : 0;
        }
    }
}
