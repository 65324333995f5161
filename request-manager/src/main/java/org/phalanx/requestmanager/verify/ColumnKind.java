package org.phalanx.requestmanager.verify;

import java.sql.Types;
import java.util.Locale;

/**
 * How verification renders a column as canonical text. The kind is read from each replica's own
 * metadata, so a PostgreSQL {@code boolean} and a MariaDB {@code tinyint(1)} meet as the same
 * text. Recognised by the declared type name first: SQLite reports NUMERIC, REAL and DECIMAL
 * all as {@link Types#FLOAT} and BLOB as {@link Types#VARCHAR}, but keeps the declared name.
 */
public enum ColumnKind {
    /** Whole numbers: their decimal text, portable across engines. */
    INTEGER(true),
    /** Exact numbers with a declared scale: that many digits after the point, portable. */
    DECIMAL(true),
    /** Character strings: the string itself, portable. */
    TEXT(true),
    /** Booleans as 1 or 0, portable. */
    BOOLEAN(true),
    /** Binary strings as lower-case hex, portable. */
    BINARY(true),
    /** Approximate numbers: the engine's own text, identical within one engine only. */
    FLOAT(false),
    /** Dates and times: the engine's own text, identical within one engine only. */
    TEMPORAL(false),
    /** Anything else: the engine's own text. */
    OTHER(false);

    private final boolean portable;

    ColumnKind(boolean portable) {
        this.portable = portable;
    }

    /** Whether two engines render equal values of this kind as the same text. */
    public boolean portable() {
        return portable;
    }

    /** The kind of a column from its JDBC metadata (DATA_TYPE and TYPE_NAME). */
    public static ColumnKind of(int jdbcType, String typeName) {
        String name = typeName == null ? "" : typeName.toLowerCase(Locale.ROOT);
        int paren = name.indexOf('(');
        if (paren >= 0) {
            name = name.substring(0, paren);
        }
        name = name.replace(" unsigned", "").trim();
        switch (name) {
            case "bool", "boolean", "bit":
                return BOOLEAN;
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "int2", "int4", "int8",
                    "serial", "smallserial", "bigserial", "serial4", "serial8":
                return INTEGER;
            case "numeric", "decimal", "number", "dec", "fixed":
                return DECIMAL;
            case "real", "float", "double", "double precision", "float4", "float8":
                return FLOAT;
            case "char", "character", "varchar", "character varying", "text", "tinytext", "mediumtext", "longtext",
                    "nchar", "nvarchar", "clob", "bpchar", "string", "enum", "set", "uuid", "json", "jsonb":
                return TEXT;
            case "blob", "tinyblob", "mediumblob", "longblob", "bytea", "binary", "varbinary":
                return BINARY;
            case "date", "time", "timestamp", "datetime", "timestamptz", "timetz", "year",
                    "timestamp without time zone", "timestamp with time zone", "time without time zone":
                return TEMPORAL;
            default:
                return byJdbcType(jdbcType);
        }
    }

    private static ColumnKind byJdbcType(int jdbcType) {
        return switch (jdbcType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> INTEGER;
            case Types.NUMERIC, Types.DECIMAL -> DECIMAL;
            case Types.BOOLEAN, Types.BIT -> BOOLEAN;
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR,
                    Types.CLOB, Types.NCLOB -> TEXT;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BINARY;
            case Types.REAL, Types.FLOAT, Types.DOUBLE -> FLOAT;
            case Types.DATE, Types.TIME, Types.TIMESTAMP, Types.TIME_WITH_TIMEZONE, Types.TIMESTAMP_WITH_TIMEZONE ->
                    TEMPORAL;
            default -> OTHER;
        };
    }
}
