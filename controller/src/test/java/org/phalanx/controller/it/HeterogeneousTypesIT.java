package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heterogeneous done-when 2: a read of every supported type returns the same Java values and the
 * same ResultSetMetaData whichever replica served it, each replica forced in turn by disabling the
 * other two. The table is created by portable DDL through the virtual database.
 */
class HeterogeneousTypesIT {
    private static final String TEXT = "héllo wörld ✓ 'quoted' \\ back";
    private static final String LONG_TEXT = "x".repeat(20_000);
    private static final byte[] BYTES = {0, 1, (byte) 0xFF, 127, -128};

    @TempDir
    Path dir;

    @Test
    void everyReplicaAnswersWithTheSameTypesAndValues() throws Exception {
        try (HeterogeneousCluster cluster = new HeterogeneousCluster(dir, "phalanx_hetero_types", "all")) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE typed (id INTEGER PRIMARY KEY, flag BOOLEAN, small SMALLINT, num INTEGER,"
                        + " big BIGINT, amount DECIMAL(10,2), ratio DOUBLE PRECISION, day DATE, at_time TIME,"
                        + " moment TIMESTAMP, label VARCHAR(40), body TEXT, data BLOB)");
                insert(c);
            }
            Map<String, List<String>> seen = new LinkedHashMap<>();
            for (String only : HeterogeneousCluster.BACKENDS) {
                seen.put(only, cluster.withOnly(only, () -> {
                    try (Connection c = cluster.connect()) {
                        checkValues(c, only);
                        return describe(c);
                    }
                }));
            }
            List<String> lite = seen.get("lite");
            assertEquals(lite, seen.get("pg"), "PostgreSQL answers like SQLite");
            assertEquals(lite, seen.get("maria"), "MariaDB answers like SQLite");
        }
    }

    private static void insert(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setInt(1, 1);
            ps.setBoolean(2, true);
            ps.setShort(3, (short) -12);
            ps.setInt(4, 123_456);
            ps.setLong(5, Long.MAX_VALUE - 1);
            ps.setBigDecimal(6, new BigDecimal("1234.5"));
            ps.setDouble(7, 0.1);
            ps.setDate(8, Date.valueOf("2024-02-29"));
            ps.setTime(9, Time.valueOf("23:59:58"));
            ps.setTimestamp(10, Timestamp.valueOf("2024-02-29 12:34:56.789"));
            ps.setString(11, TEXT);
            ps.setString(12, LONG_TEXT);
            ps.setBytes(13, BYTES);
            ps.executeUpdate();
            ps.setInt(1, 2);
            int[] types = {Types.BOOLEAN, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.DECIMAL, Types.DOUBLE,
                Types.DATE, Types.TIME, Types.TIMESTAMP, Types.VARCHAR, Types.LONGVARCHAR, Types.BLOB};
            for (int i = 0; i < types.length; i++) {
                ps.setNull(i + 2, types[i]);
            }
            ps.executeUpdate();
            ps.setInt(1, 3);
            ps.setBoolean(2, false);
            ps.setShort(3, Short.MAX_VALUE);
            ps.setInt(4, Integer.MIN_VALUE);
            ps.setLong(5, -1);
            ps.setBigDecimal(6, new BigDecimal("-0.05"));
            ps.setDouble(7, -1e300);
            ps.setDate(8, Date.valueOf("1970-01-01"));
            ps.setTime(9, Time.valueOf("00:00:00"));
            ps.setTimestamp(10, Timestamp.valueOf("1999-12-31 23:59:59"));
            ps.setString(11, "");
            ps.setString(12, "multi\nline");
            ps.setBytes(13, new byte[0]);
            ps.executeUpdate();
        }
    }

    /** Metadata and values as text, column by column, including the Java class of each value. */
    private static List<String> describe(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (String sql : List.of("SELECT * FROM typed ORDER BY id",
                    "SELECT COUNT(*) AS n, SUM(num) AS total, SUM(small) AS smalls FROM typed")) {
                try (ResultSet rs = s.executeQuery(sql)) {
                    ResultSetMetaData md = rs.getMetaData();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        out.add(md.getColumnLabel(i) + " " + md.getColumnName(i) + " " + md.getColumnType(i) + " "
                                + md.getColumnTypeName(i) + " " + md.getPrecision(i) + "," + md.getScale(i) + " nullable="
                                + md.isNullable(i) + " signed=" + md.isSigned(i) + " size=" + md.getColumnDisplaySize(i)
                                + " " + md.getColumnClassName(i) + " table=" + md.getTableName(i) + " schema="
                                + md.getSchemaName(i) + " catalog=" + md.getCatalogName(i));
                    }
                    while (rs.next()) {
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            Object v = rs.getObject(i);
                            String text = v instanceof byte[] b ? HexFormat.of().formatHex(b)
                                    : v instanceof java.sql.Blob b ? HexFormat.of().formatHex(b.getBytes(1, (int) b.length()))
                                    : v instanceof String t && t.length() > 100 ? t.length() + " chars, hash " + t.hashCode()
                                    : String.valueOf(v);
                            out.add(md.getColumnLabel(i) + "=" + (v == null ? "null" : v.getClass().getName() + ":" + text));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** The values themselves, through the typed getters an application uses. */
    private static void checkValues(Connection c, String backend) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM typed ORDER BY id")) {
            assertTrue(rs.next());
            assertEquals(Boolean.TRUE, rs.getObject("flag"), backend);
            assertEquals(-12, rs.getObject("small"), backend);
            assertEquals(123_456, rs.getObject("num"), backend);
            assertEquals(Long.MAX_VALUE - 1, rs.getObject("big"), backend);
            assertEquals(new BigDecimal("1234.50"), rs.getObject("amount"), backend);
            assertEquals(0.1, rs.getObject("ratio"), backend);
            assertEquals(Date.valueOf("2024-02-29"), rs.getDate("day"), backend);
            assertEquals(Time.valueOf("23:59:58"), rs.getTime("at_time"), backend);
            assertEquals(Timestamp.valueOf("2024-02-29 12:34:56.789"), rs.getTimestamp("moment"), backend);
            assertEquals(TEXT, rs.getString("label"), backend);
            assertEquals(LONG_TEXT, rs.getString("body"), backend);
            assertArrayEquals(BYTES, rs.getBytes("data"), backend);
            assertTrue(rs.next(), backend + ": the row of NULLs");
            for (int i = 2; i <= 13; i++) {
                assertNull(rs.getObject(i), backend + " column " + i);
            }
            assertFalse(rs.getBoolean("flag"));
            assertTrue(rs.wasNull());
            assertTrue(rs.next());
            assertEquals(Boolean.FALSE, rs.getObject("flag"), backend);
            assertEquals(new BigDecimal("-0.05"), rs.getObject("amount"), backend);
            assertEquals("", rs.getString("label"), backend);
            assertArrayEquals(new byte[0], rs.getBytes("data"), backend);
        }
    }
}
