package org.phalanx.driver;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;

import org.phalanx.protocol.Untyped;
import org.phalanx.protocol.Batch;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.SqlNull;

/**
 * java.sql.PreparedStatement. Nothing is prepared on the controller ahead of time: the SQL
 * text travels with its parameter values in each EXECUTE, and the controller caches the
 * analysis by SQL text. Parameters are converted to wire values as they are set.
 */
public final class PhalanxPreparedStatement extends PhalanxStatement implements PreparedStatement {
    /** Marks a parameter that was never set (null is not used: SQL NULL is an SqlNull). */
    private static final Object UNSET = new Object();

    private final String sql;
    private final Object[] parameters;
    private final GeneratedKeys keys;
    private final List<List<Object>> batch = new ArrayList<>();

    PhalanxPreparedStatement(PhalanxConnection connection, String sql, int resultSetType, GeneratedKeys keys)
            throws SQLException {
        super(connection, resultSetType);
        if (sql == null) {
            throw SqlExceptions.create("SQL must not be null", SqlExceptions.INVALID_ARGUMENT);
        }
        this.sql = sql;
        this.keys = keys;
        this.parameters = new Object[ParameterMarkers.count(sql)];
        Arrays.fill(parameters, UNSET);
    }

    private void set(int index, Object wireValue) throws SQLException {
        checkOpen();
        if (index < 1 || index > parameters.length) {
            throw SqlExceptions.create("parameter index " + index + " is out of range: the statement has "
                    + parameters.length + " parameter marker(s)", SqlExceptions.INVALID_DESCRIPTOR_INDEX);
        }
        parameters[index - 1] = wireValue;
    }

    /** The bound values, refusing (07001) before any network traffic if one is missing. */
    private List<Object> boundParameters() throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i] == UNSET) {
                throw SqlExceptions.create("parameter " + (i + 1) + " of " + parameters.length + " is not set",
                        SqlExceptions.PARAMETER_NOT_SET);
            }
        }
        return Arrays.asList(parameters.clone());
    }

    private static SQLException notForPrepared() {
        return SqlExceptions.create("this method takes no SQL on a PreparedStatement", SqlExceptions.GENERAL_ERROR);
    }

    // ---- execution --------------------------------------------------------------------------

    @Override
    public ResultSet executeQuery() throws SQLException {
        checkOpen();
        return runQuery(sql, boundParameters());
    }

    @Override
    public int executeUpdate() throws SQLException {
        return toIntCount(executeLargeUpdate());
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        checkOpen();
        return runUpdate(sql, boundParameters(), keys);
    }

    @Override
    public boolean execute() throws SQLException {
        checkOpen();
        return run(sql, boundParameters(), Execute.ANY, keys);
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        batch.add(boundParameters());
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<List<Object>> sets = List.copyOf(batch);
        batch.clear(); // JDBC: the batch is reset whether or not it succeeds
        return runBatch(new Batch(sql, List.of(), sets, queryTimeoutSeconds(), keys.mode(), keys.columns()), sets.size());
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return toIntCounts(executeLargeBatch());
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        Arrays.fill(parameters, UNSET);
    }

    /** Column metadata would need a round trip to the backend before execution; JDBC allows null. */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return new PhalanxParameterMetaData(parameters.length);
    }

    // The Statement methods taking SQL text are refused on a PreparedStatement, as JDBC requires.

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        throw notForPrepared();
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        throw notForPrepared();
    }

    // ---- parameters -------------------------------------------------------------------------

    @Override
    public void setNull(int index, int sqlType) throws SQLException {
        set(index, new SqlNull(sqlType));
    }

    @Override
    public void setNull(int index, int sqlType, String typeName) throws SQLException {
        set(index, new SqlNull(sqlType));
    }

    @Override
    public void setBoolean(int index, boolean x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setByte(int index, byte x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setShort(int index, short x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setInt(int index, int x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setLong(int index, long x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setFloat(int index, float x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setDouble(int index, double x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setBigDecimal(int index, BigDecimal x) throws SQLException {
        set(index, x == null ? new SqlNull(Types.DECIMAL) : x);
    }

    @Override
    public void setString(int index, String x) throws SQLException {
        set(index, x == null ? new SqlNull(Types.VARCHAR) : x);
    }

    @Override
    public void setNString(int index, String x) throws SQLException {
        set(index, x == null ? new SqlNull(Types.NVARCHAR) : x);
    }

    @Override
    public void setBytes(int index, byte[] x) throws SQLException {
        set(index, x == null ? new SqlNull(Types.VARBINARY) : x.clone());
    }

    @Override
    public void setDate(int index, Date x) throws SQLException {
        set(index, ParameterEncoder.date(x, null));
    }

    @Override
    public void setDate(int index, Date x, Calendar cal) throws SQLException {
        set(index, ParameterEncoder.date(x, cal));
    }

    @Override
    public void setTime(int index, Time x) throws SQLException {
        set(index, ParameterEncoder.time(x, null));
    }

    @Override
    public void setTime(int index, Time x, Calendar cal) throws SQLException {
        set(index, ParameterEncoder.time(x, cal));
    }

    @Override
    public void setTimestamp(int index, Timestamp x) throws SQLException {
        set(index, ParameterEncoder.timestamp(x, null));
    }

    @Override
    public void setTimestamp(int index, Timestamp x, Calendar cal) throws SQLException {
        set(index, ParameterEncoder.timestamp(x, cal));
    }

    @Override
    public void setAsciiStream(int index, InputStream x) throws SQLException {
        setAsciiStream(index, x, -1L);
    }

    @Override
    public void setAsciiStream(int index, InputStream x, int length) throws SQLException {
        setAsciiStream(index, x, (long) length);
    }

    @Override
    public void setAsciiStream(int index, InputStream x, long length) throws SQLException {
        set(index, x == null ? new SqlNull(Types.LONGVARCHAR)
                : new String(ParameterEncoder.readBytes(x, length), StandardCharsets.US_ASCII));
    }

    @Override
    @Deprecated
    public void setUnicodeStream(int index, InputStream x, int length) throws SQLException {
        // JDBC 1 defined the unicode stream as UTF-16 big-endian ("two-byte Unicode characters").
        set(index, x == null ? new SqlNull(Types.LONGVARCHAR)
                : new String(ParameterEncoder.readBytes(x, length), StandardCharsets.UTF_16BE));
    }

    @Override
    public void setBinaryStream(int index, InputStream x) throws SQLException {
        setBinaryStream(index, x, -1L);
    }

    @Override
    public void setBinaryStream(int index, InputStream x, int length) throws SQLException {
        setBinaryStream(index, x, (long) length);
    }

    @Override
    public void setBinaryStream(int index, InputStream x, long length) throws SQLException {
        set(index, x == null ? new SqlNull(Types.LONGVARBINARY) : ParameterEncoder.readBytes(x, length));
    }

    @Override
    public void setCharacterStream(int index, Reader x) throws SQLException {
        setCharacterStream(index, x, -1L);
    }

    @Override
    public void setCharacterStream(int index, Reader x, int length) throws SQLException {
        setCharacterStream(index, x, (long) length);
    }

    @Override
    public void setCharacterStream(int index, Reader x, long length) throws SQLException {
        set(index, x == null ? new SqlNull(Types.LONGVARCHAR) : ParameterEncoder.readChars(x, length));
    }

    @Override
    public void setNCharacterStream(int index, Reader x) throws SQLException {
        setNCharacterStream(index, x, -1L);
    }

    @Override
    public void setNCharacterStream(int index, Reader x, long length) throws SQLException {
        set(index, x == null ? new SqlNull(Types.LONGNVARCHAR) : ParameterEncoder.readChars(x, length));
    }

    @Override
    public void setBlob(int index, Blob x) throws SQLException {
        set(index, x == null ? new SqlNull(Types.BLOB) : ParameterEncoder.blobBytes(x));
    }

    @Override
    public void setBlob(int index, InputStream x) throws SQLException {
        setBlob(index, x, -1L);
    }

    @Override
    public void setBlob(int index, InputStream x, long length) throws SQLException {
        set(index, x == null ? new SqlNull(Types.BLOB) : ParameterEncoder.readBytes(x, length));
    }

    @Override
    public void setClob(int index, Clob x) throws SQLException {
        set(index, x == null ? new SqlNull(Types.CLOB) : ParameterEncoder.clobString(x));
    }

    @Override
    public void setClob(int index, Reader x) throws SQLException {
        setClob(index, x, -1L);
    }

    @Override
    public void setClob(int index, Reader x, long length) throws SQLException {
        set(index, x == null ? new SqlNull(Types.CLOB) : ParameterEncoder.readChars(x, length));
    }

    @Override
    public void setNClob(int index, NClob x) throws SQLException {
        set(index, x == null ? new SqlNull(Types.NCLOB) : ParameterEncoder.clobString(x));
    }

    @Override
    public void setNClob(int index, Reader x) throws SQLException {
        setNClob(index, x, -1L);
    }

    @Override
    public void setNClob(int index, Reader x, long length) throws SQLException {
        set(index, x == null ? new SqlNull(Types.NCLOB) : ParameterEncoder.readChars(x, length));
    }

    @Override
    public void setObject(int index, Object x) throws SQLException {
        if (x instanceof Array a) {
            setArray(index, a);
        } else if (x != null && x.getClass().isArray() && !(x instanceof byte[])) {
            set(index, arrayParameter(PostgresArrayText.format(x))); // String[], int[]: as pgjdbc takes them
        } else {
            set(index, ParameterEncoder.fromObject(x));
        }
    }

    @Override
    public void setObject(int index, Object x, int targetSqlType) throws SQLException {
        if (targetSqlType == Types.ARRAY && x != null) {
            setObject(index, x);
            return;
        }
        set(index, ParameterEncoder.convert(x, targetSqlType, -1));
    }

    /** scaleOrLength is the scale for DECIMAL/NUMERIC; for streams the whole stream is read anyway. */
    @Override
    public void setObject(int index, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        boolean decimal = targetSqlType == Types.DECIMAL || targetSqlType == Types.NUMERIC;
        set(index, ParameterEncoder.convert(x, targetSqlType, decimal ? scaleOrLength : -1));
    }

    @Override
    public void setObject(int index, Object x, SQLType targetSqlType) throws SQLException {
        setObject(index, x, vendorType(targetSqlType));
    }

    @Override
    public void setObject(int index, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        setObject(index, x, vendorType(targetSqlType), scaleOrLength);
    }

    private static int vendorType(SQLType type) throws SQLException {
        if (type instanceof JDBCType j) {
            return j.getVendorTypeNumber();
        }
        throw SqlExceptions.notSupported("SQLType " + type);
    }

    @Override
    public void setURL(int index, URL x) throws SQLException {
        set(index, x == null ? new SqlNull(Types.VARCHAR) : x.toExternalForm());
    }

    @Override
    public void setArray(int index, Array x) throws SQLException {
        checkOpen();
        set(index, x == null ? new SqlNull(Types.ARRAY) : arrayParameter(PhalanxArray.textOf(x)));
    }

    /**
     * An array travels as its PostgreSQL text, untyped, which PostgreSQL reads as the array type the
     * statement needs (as pgjdbc sends it). The other engines have no arrays.
     */
    private Untyped arrayParameter(String text) throws SQLException {
        if (!connection.isPostgreSql()) {
            throw SqlExceptions.notSupported("SQL ARRAY parameters on " + connection.hello().productName()
                    + " (arrays are PostgreSQL's)");
        }
        return new Untyped(text);
    }

    @Override
    public void setRef(int index, Ref x) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("SQL REF parameters");
    }

    @Override
    public void setRowId(int index, RowId x) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("ROWID parameters");
    }

    @Override
    public void setSQLXML(int index, SQLXML x) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("SQLXML parameters");
    }

    @Override
    public String toString() {
        return "PhalanxPreparedStatement[" + sql + "]";
    }
}
