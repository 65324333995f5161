package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.jdbc.Fault;
import org.phalanx.testkit.jdbc.FaultyDriver;

/** Done-when 6: every common type round-trips, NULLs included, and big results stream. */
class TypesRoundTripIT {
    private static final String TABLE = "CREATE TABLE v (id INTEGER PRIMARY KEY, i INTEGER, l BIGINT, sh SMALLINT, "
            + "ti TINYINT, b BOOLEAN, d DOUBLE, f REAL, dec DECIMAL(20,6), s VARCHAR(100), dt DATE, tm TIME, "
            + "ts TIMESTAMP, bin BLOB, bl BLOB, cl CLOB)";

    @TempDir
    Path dir;

    @Test
    void everyTypeAndNullRoundTrips() throws Exception {
        byte[] bytes = {0, 1, 2, (byte) 0xFF, 127, -128};
        Date date = Date.valueOf("2024-02-29");
        Time time = Time.valueOf("23:59:58");
        Timestamp ts = Timestamp.valueOf("2024-02-29 12:34:56.789");
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "all", "b1", "b2")) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate(TABLE);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                    ps.setInt(1, 1);
                    ps.setInt(2, Integer.MIN_VALUE);
                    ps.setLong(3, Long.MAX_VALUE);
                    ps.setShort(4, Short.MIN_VALUE);
                    ps.setByte(5, (byte) -7);
                    ps.setBoolean(6, true);
                    ps.setDouble(7, Math.PI);
                    ps.setFloat(8, 1.5f);
                    ps.setBigDecimal(9, new BigDecimal("-98765.4321"));
                    ps.setString(10, "héllo wörld ✓ 'quoted'");
                    ps.setDate(11, date);
                    ps.setTime(12, time);
                    ps.setTimestamp(13, ts);
                    ps.setBytes(14, bytes);
                    ps.setBinaryStream(15, new ByteArrayInputStream(bytes));
                    ps.setCharacterStream(16, new StringReader("a clob ✓"));
                    assertEquals(1, ps.executeUpdate());
                    ps.setInt(1, 2);
                    int[] types = {Types.INTEGER, Types.BIGINT, Types.SMALLINT, Types.TINYINT, Types.BOOLEAN, Types.DOUBLE,
                        Types.REAL, Types.DECIMAL, Types.VARCHAR, Types.DATE, Types.TIME, Types.TIMESTAMP, Types.VARBINARY,
                        Types.BLOB, Types.CLOB};
                    for (int i = 0; i < types.length; i++) {
                        ps.setNull(i + 2, types[i]);
                    }
                    assertEquals(1, ps.executeUpdate());
                }
                try (PreparedStatement ps = c.prepareStatement("SELECT * FROM v WHERE id = ?")) {
                    ps.setInt(1, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(Integer.MIN_VALUE, rs.getInt("i"));
                        assertEquals(Long.MAX_VALUE, rs.getLong("l"));
                        assertEquals(Short.MIN_VALUE, rs.getShort("sh"));
                        assertEquals((byte) -7, rs.getByte("ti"));
                        assertTrue(rs.getBoolean("b"));
                        assertEquals(Math.PI, rs.getDouble("d"));
                        assertEquals(1.5f, rs.getFloat("f"));
                        assertEquals(0, new BigDecimal("-98765.4321").compareTo(rs.getBigDecimal("dec")),
                                "decimal " + rs.getBigDecimal("dec"));
                        assertEquals("héllo wörld ✓ 'quoted'", rs.getString("s"));
                        assertEquals(date, rs.getDate("dt"));
                        assertEquals(time, rs.getTime("tm"));
                        assertEquals(ts, rs.getTimestamp("ts"));
                        assertArrayEquals(bytes, rs.getBytes("bin"));
                        assertArrayEquals(bytes, rs.getBlob("bl").getBytes(1, bytes.length));
                        assertEquals("a clob ✓", rs.getClob("cl").getSubString(1, 8));
                        assertFalse(rs.wasNull());
                        assertFalse(rs.next());
                    }
                    ps.setInt(1, 2);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        for (int col = 2; col <= 16; col++) {
                            assertNull(rs.getObject(col), "column " + col);
                            assertTrue(rs.wasNull(), "wasNull after column " + col);
                            rs.getInt(col);
                            assertTrue(rs.wasNull());
                        }
                        assertNull(rs.getString("s"));
                        assertNull(rs.getBigDecimal("dec"));
                        assertNull(rs.getDate("dt"));
                        assertNull(rs.getTimestamp("ts"));
                        assertNull(rs.getBytes("bin"));
                    }
                }
            }
        }
        PhalanxClusterChecks.identical(dir, java.util.List.of("b1", "b2"), "v", "id");
    }

    @Test
    void aHundredThousandRowsStreamWithASmallFetchSize() throws Exception {
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "first", "b1")) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE big (id INTEGER PRIMARY KEY, payload TEXT)");
                // a recursive CTE fills it on the backend in one statement
                s.executeUpdate("INSERT INTO big WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000)"
                        + " SELECT x, printf('row-%06d', x) FROM n");
                s.setFetchSize(100);
                long sum = 0;
                int rows = 0;
                Fault backend = FaultyDriver.fault("b1");
                long before = backend.rowsRead.get();
                try (ResultSet rs = s.executeQuery("SELECT id, payload FROM big ORDER BY id")) {
                    assertTrue(rs.next());
                    // the controller has read one batch (plus read-ahead) from the backend, no more
                    assertTrue(backend.rowsRead.get() - before <= 102, "rows read: " + (backend.rowsRead.get() - before));
                    rows++;
                    sum += rs.getLong(1);
                    for (int i = 0; i < 150; i++) {
                        rs.next();
                        rows++;
                        sum += rs.getLong(1);
                    }
                    assertTrue(backend.rowsRead.get() - before <= 204, "two batches read: " + (backend.rowsRead.get() - before));
                    while (rs.next()) {
                        rows++;
                        sum += rs.getLong(1);
                        if (rows % 25_000 == 0) {
                            assertEquals(String.format("row-%06d", rows), rs.getString(2));
                        }
                    }
                }
                assertEquals(100_000, rows);
                assertEquals(100_000L * 100_001L / 2, sum);
                // leaving a big result early closes its cursor; the connection stays usable
                try (ResultSet rs = s.executeQuery("SELECT id FROM big")) {
                    assertTrue(rs.next());
                }
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM big")) {
                    rs.next();
                    assertEquals(100_000, rs.getInt(1));
                }
            }
        }
    }
}
