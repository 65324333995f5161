package org.phalanx.requestmanager.api;


import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Value conversion by declared column type, on a real SQLite database with its loose typing. */
class RowReaderTest {
    @TempDir
    Path dir;
    Connection db;

    @BeforeEach
    void open() throws SQLException {
        db = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("types.db"));
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TABLE t(i INTEGER, b BIGINT, d DATE, price DECIMAL(10,2), data BLOB, flag BOOLEAN,"
                    + " r REAL, txt VARCHAR(20))");
        }
    }

    @AfterEach
    void close() throws SQLException {
        db.close();
    }

    private Object[] row(String insert) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute("DELETE FROM t");
            s.execute(insert);
            try (ResultSet rs = s.executeQuery("SELECT * FROM t")) {
                RowReader reader = RowReader.of(rs.getMetaData());
                assertTrue(rs.next());
                return reader.read(rs);
            }
        }
    }

    @Test
    void valuesFollowTheDeclaredColumnTypes() throws SQLException {
        Object[] row = row("INSERT INTO t VALUES (7, 8, '2024-02-29', 12.5, x'CAFE', 1, 1.5, 'text')");
        assertEquals(7, row[0]);
        assertInstanceOf(Integer.class, row[0]);
        assertEquals(8L, row[1]);
        assertEquals(LocalDate.of(2024, 2, 29), row[2]);
        assertInstanceOf(BigDecimal.class, row[3]);
        assertEquals(0, new BigDecimal("12.5").compareTo((BigDecimal) row[3]));
        assertArrayEquals(new byte[] {(byte) 0xCA, (byte) 0xFE}, (byte[]) row[4]);
        assertEquals(true, row[5]);
        assertEquals(1.5, row[6]);
        assertEquals("text", row[7]);
    }

    /** SQLite's REAL is a double though its driver says REAL (JDBC's float): no digit is lost. */
    @Test
    void sqliteRealsKeepEveryDigit() throws SQLException {
        assertEquals(0.123456789012345, row("INSERT INTO t(r) VALUES (0.123456789012345)")[6]);
        assertEquals(1e300, row("INSERT INTO t(r) VALUES (1e300)")[6]);
    }

    @Test
    void integerColumnsHoldingSixtyFourBitValuesAreNotTruncated() throws SQLException {
        Object[] row = row("INSERT INTO t(i) VALUES (" + (1L << 40) + ")");
        assertEquals(1L << 40, row[0]);
    }

    @Test
    void aDateColumnHoldingAnyTextFallsBackToTheText() throws SQLException {
        Object[] row = row("INSERT INTO t(d) VALUES ('sometime soon')");
        assertEquals("sometime soon", row[2]);
    }

    @Test
    void dateFormsSqliteStores() throws SQLException {
        // SQLite's own date('now') form: its driver's getDate refuses it, the encoder does not
        assertEquals(LocalDate.of(2024, 2, 29), row("INSERT INTO t(d) VALUES (date('2024-02-29'))")[2]);
        // epoch milliseconds, which the SQLite driver writes for setDate
        assertEquals(LocalDate.of(2024, 2, 29), row("INSERT INTO t(d) VALUES ("
                + java.sql.Date.valueOf("2024-02-29").getTime() + ")")[2]);
    }

    @Test
    void nullsAreTypedNullsWithTheColumnType() throws SQLException {
        Object[] row = row("INSERT INTO t(txt) VALUES (NULL)");
        assertEquals(new TypedNull(Types.INTEGER), row[0]);
        assertEquals(new TypedNull(Types.VARCHAR), row[7]);
        for (Object v : row) {
            assertInstanceOf(TypedNull.class, v);
        }
    }

    @Test
    void objectsWithoutAWireTypeTravelAsText() throws SQLException {
        assertEquals("x", RowReader.toWire('x'));
        assertEquals(java.util.UUID.fromString("00000000-0000-0000-0000-000000000001").toString(),
                RowReader.toWire(java.util.UUID.fromString("00000000-0000-0000-0000-000000000001")));
        assertEquals(LocalDate.of(2024, 1, 2), RowReader.toWire(java.sql.Date.valueOf("2024-01-02")));
        assertEquals(new BigDecimal("12345678901234567890"),
                RowReader.toWire(new java.math.BigInteger("12345678901234567890")));
        assertFalse(RowReader.toWire(new Object()) instanceof Object[]);
    }
}
