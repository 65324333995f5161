package org.phalanx.driver;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * The updater half of java.sql.ResultSet, refused: every Phalanx result set is CONCUR_READ_ONLY
 * (writes must pass through the controller as statements so they are ordered and logged).
 */
abstract class ReadOnlyResultSet implements ResultSet {

    private static SQLException readOnly() {
        return SqlExceptions.notSupported("updating a result set (result sets are CONCUR_READ_ONLY)");
    }

    @Override
    public final int getConcurrency() throws SQLException {
        checkOpen();
        return CONCUR_READ_ONLY;
    }

    abstract void checkOpen() throws SQLException;

    @Override
    public final boolean rowUpdated() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public final boolean rowInserted() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public final boolean rowDeleted() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public final void insertRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void deleteRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void refreshRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void cancelRowUpdates() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void moveToInsertRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void moveToCurrentRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNull(int column) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBoolean(int column, boolean value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateByte(int column, byte value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateShort(int column, short value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateInt(int column, int value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateLong(int column, long value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateFloat(int column, float value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDouble(int column, double value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBigDecimal(int column, BigDecimal value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateString(int column, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBytes(int column, byte[] value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDate(int column, Date value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTime(int column, Time value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTimestamp(int column, Timestamp value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(int column, InputStream value, int lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(int column, InputStream value, int lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(int column, Reader value, int lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int column, Object value, int lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int column, Object value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNull(String label) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBoolean(String label, boolean value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateByte(String label, byte value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateShort(String label, short value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateInt(String label, int value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateLong(String label, long value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateFloat(String label, float value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDouble(String label, double value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBigDecimal(String label, BigDecimal value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateString(String label, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBytes(String label, byte[] value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDate(String label, Date value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTime(String label, Time value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTimestamp(String label, Timestamp value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(String label, InputStream value, int lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(String label, InputStream value, int lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(String label, Reader value, int lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String label, Object value, int lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String label, Object value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRef(int column, Ref value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRef(String label, Ref value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(int column, Blob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(String label, Blob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(int column, Clob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(String label, Clob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateArray(int column, Array value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateArray(String label, Array value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRowId(int column, RowId value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRowId(String label, RowId value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNString(int column, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNString(String label, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(int column, NClob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(String label, NClob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateSQLXML(int column, SQLXML value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateSQLXML(String label, SQLXML value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(int column, Reader value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(String label, Reader value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(int column, InputStream value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(int column, InputStream value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(int column, Reader value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(String label, InputStream value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(String label, InputStream value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(String label, Reader value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(int column, InputStream value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(String label, InputStream value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(int column, Reader value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(String label, Reader value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(int column, Reader value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(String label, Reader value, long lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(int column, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(String label, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(int column, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(int column, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(int column, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(String label, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(String label, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(String label, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(int column, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(String label, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(int column, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(String label, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(int column, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(String label, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int column, Object value, SQLType lengthOrType, int scaleOrLength) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String label, Object value, SQLType lengthOrType, int scaleOrLength) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int column, Object value, SQLType lengthOrType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String label, Object value, SQLType lengthOrType) throws SQLException {
        throw readOnly();
    }
}
