package org.phalanx.recoverylog.dump.ddl;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import org.apache.commons.beanutils.DynaBean;
import org.apache.ddlutils.PlatformInfo;
import org.apache.ddlutils.dynabean.SqlDynaProperty;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.platform.PlatformImplBase;

/**
 * The SQLite platform DdlUtils 1.0 lacks. Register it with {@link Platforms#register()} and get
 * it by {@link #NAME}. Besides the model reader and builder, it reads and writes values the way
 * sqlite-jdbc needs: blobs through bytes (the driver has no getBlob), dates and times as ISO text
 * (the driver's getDate parses one format only and takes numbers for epoch milliseconds).
 */
public class SqlitePlatform extends PlatformImplBase {
    public static final String NAME = "SQLite";

    public SqlitePlatform() {
        PlatformInfo info = getPlatformInfo();
        info.setMaxIdentifierLength(-1);
        info.setPrimaryKeyEmbedded(true);
        info.setForeignKeysEmbedded(true);
        info.setEmbeddedForeignKeysNamed(true);
        info.setIndicesEmbedded(false);
        info.setNonPKIdentityColumnsSupported(false);
        info.setIdentityOverrideAllowed(true);
        info.setLastIdentityValueReadable(true);
        info.setSystemIndicesReturned(false);
        info.setDelimiterToken("\"");
        info.setValueQuoteToken("'");
        info.setCommentPrefix("--");
        info.setSqlCommandDelimiter(";");

        info.addNativeTypeMapping(Types.BIT, "BOOLEAN");
        info.addNativeTypeMapping(Types.BOOLEAN, "BOOLEAN", Types.BIT);
        info.addNativeTypeMapping(Types.TINYINT, "TINYINT");
        info.addNativeTypeMapping(Types.SMALLINT, "SMALLINT");
        info.addNativeTypeMapping(Types.INTEGER, "INTEGER");
        info.addNativeTypeMapping(Types.BIGINT, "BIGINT");
        info.addNativeTypeMapping(Types.REAL, "REAL", Types.DOUBLE);
        info.addNativeTypeMapping(Types.FLOAT, "DOUBLE", Types.DOUBLE);
        info.addNativeTypeMapping(Types.DOUBLE, "DOUBLE");
        info.addNativeTypeMapping(Types.DECIMAL, "DECIMAL");
        info.addNativeTypeMapping(Types.NUMERIC, "NUMERIC");
        info.addNativeTypeMapping(Types.CHAR, "VARCHAR", Types.VARCHAR);
        info.addNativeTypeMapping(Types.VARCHAR, "VARCHAR");
        info.addNativeTypeMapping(Types.LONGVARCHAR, "TEXT");
        info.addNativeTypeMapping(Types.CLOB, "TEXT", Types.LONGVARCHAR);
        info.addNativeTypeMapping(Types.BINARY, "BLOB", Types.LONGVARBINARY);
        info.addNativeTypeMapping(Types.VARBINARY, "BLOB", Types.LONGVARBINARY);
        info.addNativeTypeMapping(Types.LONGVARBINARY, "BLOB");
        info.addNativeTypeMapping(Types.BLOB, "BLOB", Types.LONGVARBINARY);
        info.addNativeTypeMapping(Types.DATE, "DATE");
        info.addNativeTypeMapping(Types.TIME, "TIME");
        info.addNativeTypeMapping(Types.TIMESTAMP, "TIMESTAMP");
        info.setHasSize(Types.BINARY, false); // BLOB, never BLOB(16)
        info.setHasSize(Types.VARBINARY, false);
        info.setHasSize(Types.CHAR, true);
        info.setHasSize(Types.VARCHAR, true);
        info.setHasPrecisionAndScale(Types.DECIMAL, true);
        info.setHasPrecisionAndScale(Types.NUMERIC, true);

        setSqlBuilder(new SqliteBuilder(this));
        setModelReader(new SqliteModelReader(this));
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    protected void setObject(PreparedStatement statement, int index, DynaBean bean, SqlDynaProperty property)
            throws SQLException {
        Column column = property.getColumn();
        Object value = bean.get(property.getName());
        if (value == null) {
            statement.setNull(index, column.getTypeCode());
            return;
        }
        switch (column.getTypeCode()) {
            case Types.DATE -> statement.setString(index, SqliteValues.dateText(value));
            case Types.TIME -> statement.setString(index, SqliteValues.timeText(value));
            case Types.TIMESTAMP -> statement.setString(index, SqliteValues.timestampText(value));
            case Types.BLOB, Types.LONGVARBINARY, Types.VARBINARY, Types.BINARY ->
                    statement.setBytes(index, (byte[]) value);
            case Types.BIT, Types.BOOLEAN -> statement.setInt(index, Boolean.TRUE.equals(value) ? 1 : 0);
            case Types.DECIMAL, Types.NUMERIC -> statement.setBigDecimal(index, value instanceof BigDecimal d ? d
                    : new BigDecimal(value.toString()));
            default -> super.setObject(statement, index, bean, property);
        }
    }

    @Override
    protected Object extractColumnValue(ResultSet rs, String columnName, int columnIdx, int jdbcType)
            throws SQLException {
        boolean byName = columnName != null;
        Object raw = byName ? rs.getObject(columnName) : rs.getObject(columnIdx);
        if (raw == null) {
            return null;
        }
        return switch (jdbcType) {
            case Types.DATE -> java.sql.Date.valueOf(SqliteValues.parseDate(raw));
            case Types.TIME -> java.sql.Time.valueOf(SqliteValues.parseTime(raw));
            case Types.TIMESTAMP -> java.sql.Timestamp.valueOf(SqliteValues.parseTimestamp(raw));
            case Types.BLOB, Types.LONGVARBINARY, Types.VARBINARY, Types.BINARY ->
                    byName ? rs.getBytes(columnName) : rs.getBytes(columnIdx);
            case Types.CLOB, Types.LONGVARCHAR, Types.VARCHAR, Types.CHAR -> raw.toString();
            case Types.BIGINT -> ((Number) raw).longValue();
            case Types.BIT, Types.BOOLEAN -> SqliteValues.parseBoolean(raw);
            case Types.DECIMAL, Types.NUMERIC -> SqliteValues.parseDecimal(raw);
            default -> super.extractColumnValue(rs, columnName, columnIdx, jdbcType);
        };
    }
}
