package org.phalanx.driver;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.Protocol;
import org.phalanx.protocol.ResultSetReply;
import org.phalanx.protocol.RowBatch;
import org.phalanx.protocol.SqlNull;
import org.phalanx.protocol.Untyped;

/**
 * A read-only result set: forward-only results stream from a server cursor
 * ({@link StreamingRows}); scroll-insensitive ones hold every row ({@link BufferedRows}).
 * Getters convert between the wire types as JDBC specifies ({@link Conversions}).
 */
public final class PhalanxResultSet extends ReadOnlyResultSet {
    private final PhalanxStatement statement;
    private final List<ColumnInfo> columns;
    private final Map<String, Integer> columnIndex = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Rows rows;
    private final int type;
    private boolean closed;
    private boolean wasNull;
    private int fetchSize;
    private int fetchDirection = FETCH_FORWARD;
    private PhalanxResultSetMetaData metaData;

    private PhalanxResultSet(PhalanxStatement statement, List<ColumnInfo> columns, Rows rows, int type, int fetchSize) {
        this.statement = statement;
        this.columns = columns;
        this.rows = rows;
        this.type = type;
        this.fetchSize = fetchSize;
        // JDBC: the first column with a label wins; names are a fallback for labels that differ.
        for (int i = 0; i < columns.size(); i++) {
            ColumnInfo c = columns.get(i);
            if (c.label() != null) {
                columnIndex.putIfAbsent(c.label(), i + 1);
            }
        }
        for (int i = 0; i < columns.size(); i++) {
            ColumnInfo c = columns.get(i);
            if (c.name() != null) {
                columnIndex.putIfAbsent(c.name(), i + 1);
            }
        }
    }

    /** The result of EXECUTE: streamed if forward-only, fully read if scrollable. */
    static PhalanxResultSet forReply(PhalanxStatement statement, ProtocolConnection protocol, ResultSetReply reply,
                                     int type, int fetchSize, int maxRows) throws SQLException {
        Rows rows = type == TYPE_SCROLL_INSENSITIVE
                ? new BufferedRows(readAll(protocol, reply, fetchSize, maxRows))
                : new StreamingRows(protocol, reply, fetchSize, maxRows);
        return new PhalanxResultSet(statement, reply.columns(), rows, type, fetchSize);
    }

    /** A result already complete on the client: metadata, generated keys. */
    static PhalanxResultSet inMemory(PhalanxStatement statement, List<ColumnInfo> columns, List<Object[]> rows) {
        return new PhalanxResultSet(statement, columns, new BufferedRows(rows), TYPE_SCROLL_INSENSITIVE, 0);
    }

    /**
     * Every row of a reply. The server sends them all at once for a scrollable EXECUTE; fetching
     * the rest anyway keeps the client correct if it did not.
     */
    static List<Object[]> readAll(ProtocolConnection protocol, ResultSetReply reply, int fetchSize, int maxRows)
            throws SQLException {
        List<Object[]> all = new ArrayList<>(reply.firstBatch().rows());
        boolean open = reply.cursorId() != 0 && !reply.firstBatch().last();
        int size = fetchSize > 0 ? fetchSize : Protocol.DEFAULT_FETCH_SIZE;
        while (open && (maxRows == 0 || all.size() < maxRows)) {
            RowBatch b = protocol.fetch(reply.cursorId(), size, reply.columns().size());
            all.addAll(b.rows());
            open = !b.last();
        }
        if (open) {
            protocol.closeCursor(reply.cursorId());
        }
        if (maxRows > 0 && all.size() > maxRows) {
            all.subList(maxRows, all.size()).clear();
        }
        return all;
    }

    @Override
    void checkOpen() throws SQLException {
        if (closed) {
            throw SqlExceptions.closed("result set");
        }
    }

    /** Test hook: the streaming rows behind a forward-only result set, else null. */
    StreamingRows streamingRows() {
        return rows instanceof StreamingRows s ? s : null;
    }

    private BufferedRows scroll() throws SQLException {
        checkOpen();
        if (!(rows instanceof BufferedRows b) || type == TYPE_FORWARD_ONLY) {
            throw SqlExceptions.create("operation requires a scrollable result set, but this one is TYPE_FORWARD_ONLY",
                    SqlExceptions.INVALID_CURSOR_STATE);
        }
        return b;
    }

    /** The current row's value, or null (setting wasNull) for SQL NULL. */
    private Object value(int column) throws SQLException {
        checkOpen();
        if (column < 1 || column > columns.size()) {
            throw SqlExceptions.create("column index " + column + " is out of range 1.." + columns.size(),
                    SqlExceptions.INVALID_DESCRIPTOR_INDEX);
        }
        Object[] row = rows.current();
        if (row == null) {
            throw SqlExceptions.create("the result set is not positioned on a row", SqlExceptions.INVALID_CURSOR_STATE);
        }
        Object v = row[column - 1];
        wasNull = v == null || v instanceof SqlNull;
        if (v instanceof Untyped u) {
            return u.text(); // a value is text to its reader (only a controller echoing parameters sends one)
        }
        return wasNull ? null : v;
    }

    private static ZoneId zone(Calendar cal) {
        return cal == null ? ZoneId.systemDefault() : cal.getTimeZone().toZoneId();
    }

    // ---- navigation -------------------------------------------------------------------------

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        return rows.next();
    }

    @Override
    public boolean previous() throws SQLException {
        return scroll().previous();
    }

    @Override
    public boolean first() throws SQLException {
        return scroll().first();
    }

    @Override
    public boolean last() throws SQLException {
        return scroll().last();
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        return scroll().absolute(row);
    }

    @Override
    public boolean relative(int delta) throws SQLException {
        return scroll().relative(delta);
    }

    @Override
    public void beforeFirst() throws SQLException {
        scroll().beforeFirst();
    }

    @Override
    public void afterLast() throws SQLException {
        scroll().afterLast();
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return rows.isBeforeFirst();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return rows.isAfterLast();
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return rows.isFirst();
    }

    @Override
    public boolean isLast() throws SQLException {
        checkOpen();
        return rows.isLast();
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return rows.getRow();
    }

    // ---- life cycle and settings ------------------------------------------------------------

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            rows.close();
        } finally {
            if (statement != null) {
                statement.resultSetClosed(this);
            }
        }
    }

    /** Closes without network traffic: the connection is closing and the server frees its cursors itself. */
    void closeLocally() {
        closed = true;
        rows.closeLocally();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return type;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != FETCH_FORWARD && direction != FETCH_REVERSE && direction != FETCH_UNKNOWN) {
            throw SqlExceptions.create("invalid fetch direction " + direction, SqlExceptions.INVALID_ARGUMENT);
        }
        if (type == TYPE_FORWARD_ONLY && direction != FETCH_FORWARD) {
            throw SqlExceptions.create("a TYPE_FORWARD_ONLY result set only fetches forward",
                    SqlExceptions.INVALID_CURSOR_STATE);
        }
        fetchDirection = direction;
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return fetchDirection;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw SqlExceptions.create("fetch size must not be negative", SqlExceptions.INVALID_ARGUMENT);
        }
        fetchSize = rows;
        if (this.rows instanceof StreamingRows s) {
            s.setFetchSize(rows);
        }
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public String getCursorName() throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("named cursors (positioned updates)");
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        if (metaData == null) {
            metaData = new PhalanxResultSetMetaData(columns);
        }
        return metaData;
    }

    @Override
    public int findColumn(String label) throws SQLException {
        checkOpen();
        Integer i = label == null ? null : columnIndex.get(label);
        if (i == null) {
            throw SqlExceptions.create("no column labelled '" + label + "' in this result set",
                    SqlExceptions.COLUMN_NOT_FOUND);
        }
        return i;
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    // ---- getters by index -------------------------------------------------------------------

    @Override
    public String getString(int column) throws SQLException {
        Object v = value(column);
        if (v == null) {
            return null;
        }
        String typeName = columns.get(column - 1).typeName();
        if (v instanceof Boolean b && "bool".equals(typeName)) {
            return b ? "t" : "f"; // PostgreSQL's text of a boolean, as pgjdbc gives it
        }
        if (v instanceof Boolean b && "BOOLEAN".equals(typeName)) {
            return b ? "1" : "0"; // MariaDB's TINYINT(1) (Connector/J's BOOLEAN): the digit it holds
        }
        if (v instanceof byte[] bytes && "bytea".equals(typeName)) {
            return "\\x" + java.util.HexFormat.of().formatHex(bytes); // PostgreSQL's hex output
        }
        return Conversions.toStringValue(v);
    }

    @Override
    public boolean getBoolean(int column) throws SQLException {
        Object v = value(column);
        return v != null && Conversions.toBoolean(v);
    }

    @Override
    public byte getByte(int column) throws SQLException {
        Object v = value(column);
        return v == null ? 0 : Conversions.toByte(v);
    }

    @Override
    public short getShort(int column) throws SQLException {
        Object v = value(column);
        return v == null ? 0 : Conversions.toShort(v);
    }

    @Override
    public int getInt(int column) throws SQLException {
        Object v = value(column);
        return v == null ? 0 : Conversions.toInt(v);
    }

    @Override
    public long getLong(int column) throws SQLException {
        Object v = value(column);
        return v == null ? 0 : Conversions.toLong(v);
    }

    @Override
    public float getFloat(int column) throws SQLException {
        Object v = value(column);
        return v == null ? 0 : Conversions.toFloat(v);
    }

    @Override
    public double getDouble(int column) throws SQLException {
        Object v = value(column);
        return v == null ? 0 : Conversions.toDouble(v);
    }

    @Override
    public BigDecimal getBigDecimal(int column) throws SQLException {
        Object v = value(column);
        return v == null ? null : Conversions.toBigDecimal(v);
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int column, int scale) throws SQLException {
        BigDecimal d = getBigDecimal(column);
        return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public byte[] getBytes(int column) throws SQLException {
        Object v = value(column);
        return v == null ? null : Conversions.toBytes(v);
    }

    @Override
    public Date getDate(int column) throws SQLException {
        return getDate(column, null);
    }

    @Override
    public Date getDate(int column, Calendar cal) throws SQLException {
        Object v = value(column);
        if (v instanceof Integer year && isYear(column)) {
            return yearAsDate(year);
        }
        return v == null ? null : Conversions.toSqlDate(v, zone(cal));
    }

    /** A MariaDB YEAR, sent as its number: Connector/J's DATE for it is its first of January. */
    private boolean isYear(int column) {
        return "YEAR".equals(columns.get(column - 1).typeName());
    }

    private static Date yearAsDate(int year) {
        return Date.valueOf(java.time.LocalDate.of(year, 1, 1));
    }

    @Override
    public Time getTime(int column) throws SQLException {
        return getTime(column, null);
    }

    @Override
    public Time getTime(int column, Calendar cal) throws SQLException {
        Object v = value(column);
        return v == null ? null : Conversions.toSqlTime(v, zone(cal));
    }

    @Override
    public Timestamp getTimestamp(int column) throws SQLException {
        return getTimestamp(column, null);
    }

    @Override
    public Timestamp getTimestamp(int column, Calendar cal) throws SQLException {
        Object v = yearAsDay(column, value(column));
        return v == null ? null : Conversions.toSqlTimestamp(v, zone(cal));
    }

    /** A MariaDB YEAR's number as the day Connector/J makes of it (its first of January), for date and time getters. */
    private Object yearAsDay(int column, Object v) {
        return v instanceof Integer year && isYear(column) ? java.time.LocalDate.of(year, 1, 1) : v;
    }

    @Override
    public InputStream getAsciiStream(int column) throws SQLException {
        String s = getString(column);
        return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(int column) throws SQLException {
        String s = getString(column);
        return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_16BE));
    }

    @Override
    public InputStream getBinaryStream(int column) throws SQLException {
        byte[] b = getBytes(column);
        return b == null ? null : new ByteArrayInputStream(b);
    }

    @Override
    public Reader getCharacterStream(int column) throws SQLException {
        String s = getString(column);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public Reader getNCharacterStream(int column) throws SQLException {
        return getCharacterStream(column);
    }

    @Override
    public String getNString(int column) throws SQLException {
        return getString(column);
    }

    @Override
    public Blob getBlob(int column) throws SQLException {
        byte[] b = getBytes(column);
        return b == null ? null : new MemoryBlob(b);
    }

    @Override
    public Clob getClob(int column) throws SQLException {
        return getNClob(column);
    }

    @Override
    public NClob getNClob(int column) throws SQLException {
        String s = getString(column);
        return s == null ? null : new MemoryClob(s);
    }

    private static final String UUID_CLASS = java.util.UUID.class.getName();
    private static final String BIG_INTEGER_CLASS = java.math.BigInteger.class.getName();

    @Override
    public Object getObject(int column) throws SQLException {
        Object v = value(column);
        if (v == null) {
            return null;
        }
        // LOB columns come back as LOB objects, as applications written for other drivers expect.
        int jdbcType = columns.get(column - 1).jdbcType();
        if (jdbcType == Types.BLOB && v instanceof byte[] b) {
            return new MemoryBlob(b.clone());
        }
        if ((jdbcType == Types.CLOB || jdbcType == Types.NCLOB) && v instanceof String s) {
            return new MemoryClob(s);
        }
        if (jdbcType == Types.ARRAY) {
            return getArray(column); // as pgjdbc: an Array, not its text
        }
        if (v instanceof String s && UUID_CLASS.equals(columns.get(column - 1).className())) {
            return Conversions.toClass(s, java.util.UUID.class); // as the backend's driver said it would (pgjdbc's uuid)
        }
        if (v instanceof Integer i && jdbcType == Types.BOOLEAN) {
            return i != 0; // MariaDB's TINYINT(1), sent as its number (getInt 2), a Boolean to Connector/J
        }
        if (v instanceof Integer year && isYear(column)) {
            return yearAsDate(year);
        }
        if (v instanceof BigDecimal d && BIG_INTEGER_CLASS.equals(columns.get(column - 1).className())) {
            return d.toBigInteger(); // MariaDB's BIGINT UNSIGNED, sent as a decimal: Connector/J's BigInteger
        }
        return Conversions.toNatural(v);
    }

    @Override
    public Object getObject(int column, Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw SqlExceptions.notSupported("custom type maps");
        }
        return getObject(column);
    }

    @Override
    public <T> T getObject(int column, Class<T> type) throws SQLException {
        if (type == null) {
            throw SqlExceptions.create("type must not be null", SqlExceptions.INVALID_ARGUMENT);
        }
        if (type == Array.class) {
            return type.cast(getArray(column));
        }
        if (type == Object.class) {
            return type.cast(getObject(column)); // as the backends' drivers: what getObject(column) gives
        }
        Object v = value(column);
        if (!Number.class.isAssignableFrom(type) && type != String.class && type != Boolean.class) {
            v = yearAsDay(column, v);
        }
        return v == null ? null : Conversions.toClass(v, type);
    }

    @Override
    public URL getURL(int column) throws SQLException {
        String s = getString(column);
        if (s == null) {
            return null;
        }
        try {
            return new URI(s.trim()).toURL();
        } catch (MalformedURLException | java.net.URISyntaxException | IllegalArgumentException e) {
            throw SqlExceptions.cannotConvert(s, "URL");
        }
    }

    @Override
    public Array getArray(int column) throws SQLException {
        Object v = value(column);
        if (v == null) {
            return null;
        }
        ColumnInfo info = columns.get(column - 1);
        if (info.jdbcType() != Types.ARRAY || !(v instanceof String text)) {
            throw SqlExceptions.cannotConvert(String.valueOf(v), "Array");
        }
        return PhalanxArray.fromText(info.typeName(), text);
    }

    @Override
    public Ref getRef(int column) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("SQL REF values");
    }

    @Override
    public RowId getRowId(int column) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("ROWID values");
    }

    @Override
    public SQLXML getSQLXML(int column) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("SQLXML");
    }

    // ---- getters by label -------------------------------------------------------------------

    @Override
    public String getString(String label) throws SQLException {
        return getString(findColumn(label));
    }

    @Override
    public boolean getBoolean(String label) throws SQLException {
        return getBoolean(findColumn(label));
    }

    @Override
    public byte getByte(String label) throws SQLException {
        return getByte(findColumn(label));
    }

    @Override
    public short getShort(String label) throws SQLException {
        return getShort(findColumn(label));
    }

    @Override
    public int getInt(String label) throws SQLException {
        return getInt(findColumn(label));
    }

    @Override
    public long getLong(String label) throws SQLException {
        return getLong(findColumn(label));
    }

    @Override
    public float getFloat(String label) throws SQLException {
        return getFloat(findColumn(label));
    }

    @Override
    public double getDouble(String label) throws SQLException {
        return getDouble(findColumn(label));
    }

    @Override
    public BigDecimal getBigDecimal(String label) throws SQLException {
        return getBigDecimal(findColumn(label));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String label, int scale) throws SQLException {
        return getBigDecimal(findColumn(label), scale);
    }

    @Override
    public byte[] getBytes(String label) throws SQLException {
        return getBytes(findColumn(label));
    }

    @Override
    public Date getDate(String label) throws SQLException {
        return getDate(findColumn(label));
    }

    @Override
    public Date getDate(String label, Calendar cal) throws SQLException {
        return getDate(findColumn(label), cal);
    }

    @Override
    public Time getTime(String label) throws SQLException {
        return getTime(findColumn(label));
    }

    @Override
    public Time getTime(String label, Calendar cal) throws SQLException {
        return getTime(findColumn(label), cal);
    }

    @Override
    public Timestamp getTimestamp(String label) throws SQLException {
        return getTimestamp(findColumn(label));
    }

    @Override
    public Timestamp getTimestamp(String label, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(label), cal);
    }

    @Override
    public InputStream getAsciiStream(String label) throws SQLException {
        return getAsciiStream(findColumn(label));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(String label) throws SQLException {
        return getUnicodeStream(findColumn(label));
    }

    @Override
    public InputStream getBinaryStream(String label) throws SQLException {
        return getBinaryStream(findColumn(label));
    }

    @Override
    public Reader getCharacterStream(String label) throws SQLException {
        return getCharacterStream(findColumn(label));
    }

    @Override
    public Reader getNCharacterStream(String label) throws SQLException {
        return getNCharacterStream(findColumn(label));
    }

    @Override
    public String getNString(String label) throws SQLException {
        return getNString(findColumn(label));
    }

    @Override
    public Blob getBlob(String label) throws SQLException {
        return getBlob(findColumn(label));
    }

    @Override
    public Clob getClob(String label) throws SQLException {
        return getClob(findColumn(label));
    }

    @Override
    public NClob getNClob(String label) throws SQLException {
        return getNClob(findColumn(label));
    }

    @Override
    public Object getObject(String label) throws SQLException {
        return getObject(findColumn(label));
    }

    @Override
    public Object getObject(String label, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(label), map);
    }

    @Override
    public <T> T getObject(String label, Class<T> type) throws SQLException {
        return getObject(findColumn(label), type);
    }

    @Override
    public URL getURL(String label) throws SQLException {
        return getURL(findColumn(label));
    }

    @Override
    public Array getArray(String label) throws SQLException {
        return getArray(findColumn(label));
    }

    @Override
    public Ref getRef(String label) throws SQLException {
        return getRef(findColumn(label));
    }

    @Override
    public RowId getRowId(String label) throws SQLException {
        return getRowId(findColumn(label));
    }

    @Override
    public SQLXML getSQLXML(String label) throws SQLException {
        return getSQLXML(findColumn(label));
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
