package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.SqlNull;

/** Every setter's value travels to the (echoing) server and reads back through the getters. */
class ParameterRoundTripTest {
    private static FakeServer server;
    private static Connection connection;

    @BeforeAll
    static void start() throws Exception {
        server = new FakeServer().with(new Echo());
        connection = DriverManager.getConnection(server.url());
    }

    @AfterAll
    static void stop() throws Exception {
        connection.close();
        server.close();
    }

    private static PreparedStatement prepare(int markers) throws SQLException {
        return connection.prepareStatement("select " + "?,".repeat(markers - 1) + "?");
    }

    private static List<Object> sentParams() {
        for (int i = server.received.size() - 1; i >= 0; i--) {
            if (server.received.get(i) instanceof Execute e) {
                return e.params();
            }
        }
        throw new AssertionError("no EXECUTE received");
    }

    private static ResultSet run(PreparedStatement ps) throws SQLException {
        ResultSet rs = ps.executeQuery();
        assertTrue(rs.next());
        return rs;
    }

    @Test
    void numbersStringsAndBytes() throws Exception {
        try (PreparedStatement ps = prepare(11)) {
            ps.setInt(1, 42);
            ps.setLong(2, Long.MAX_VALUE);
            ps.setShort(3, (short) -7);
            ps.setByte(4, (byte) 5);
            ps.setBoolean(5, true);
            ps.setDouble(6, 1.5);
            ps.setFloat(7, 2.25f);
            ps.setBigDecimal(8, new BigDecimal("12345678901234567890.123"));
            ps.setString(9, "héllo ✓ '?'");
            ps.setNString(10, "ñ");
            ps.setBytes(11, new byte[] {0, 1, -1});
            ResultSet rs = run(ps);

            assertEquals(List.of(Integer.class, Long.class, Short.class, Byte.class, Boolean.class, Double.class,
                    Float.class, BigDecimal.class, String.class, String.class, byte[].class),
                    sentParams().stream().map(Object::getClass).toList(), "each setter sends its own wire type");
            assertEquals(42, rs.getInt(1));
            assertEquals(Long.MAX_VALUE, rs.getLong(2));
            assertEquals(-7, rs.getShort(3));
            assertEquals(5, rs.getByte(4));
            assertTrue(rs.getBoolean(5));
            assertEquals(1.5, rs.getDouble(6));
            assertEquals(2.25f, rs.getFloat(7));
            assertEquals(new BigDecimal("12345678901234567890.123"), rs.getBigDecimal(8));
            assertEquals("héllo ✓ '?'", rs.getString(9));
            assertEquals("ñ", rs.getNString(10));
            assertArrayEquals(new byte[] {0, 1, -1}, rs.getBytes(11));
            assertFalse(rs.wasNull());
            assertEquals(Integer.valueOf(42), rs.getObject(1));
            assertEquals("42", rs.getString("P1"), "labels are matched case-insensitively");
        }
    }

    @Test
    void datesAndTimesKeepTheirFractions() throws Exception {
        Date date = Date.valueOf("2024-01-02");
        Time time = new Time(Time.valueOf("03:04:05").getTime() + 678);
        Timestamp ts = Timestamp.valueOf("2024-01-02 03:04:05.123456789");
        try (PreparedStatement ps = prepare(3)) {
            ps.setDate(1, date);
            ps.setTime(2, time);
            ps.setTimestamp(3, ts);
            ResultSet rs = run(ps);
            assertEquals(List.of(LocalDate.of(2024, 1, 2), LocalTime.of(3, 4, 5, 678_000_000),
                    LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123456789)), sentParams(), "wall-clock values on the wire");
            assertEquals(date, rs.getDate(1));
            assertEquals(time, rs.getTime(2));
            assertEquals(ts, rs.getTimestamp(3));
            assertEquals(ts, rs.getObject(3));
            assertInstanceOf(Date.class, rs.getObject(1));
            assertInstanceOf(Time.class, rs.getObject(2));
            assertEquals("2024-01-02 03:04:05.123456789", rs.getString(3));
        }
    }

    @Test
    void calendarsConvertBetweenZones() throws Exception {
        Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));
        Instant instant = Instant.parse("2024-01-01T23:30:00.250Z");
        try (PreparedStatement ps = prepare(3)) {
            ps.setTimestamp(1, Timestamp.from(instant), tokyo);
            ps.setDate(2, new Date(instant.toEpochMilli()), tokyo);
            ps.setTime(3, new Time(instant.toEpochMilli()), tokyo);
            ResultSet rs = run(ps);
            assertEquals(List.of(LocalDateTime.of(2024, 1, 2, 8, 30, 0, 250_000_000), LocalDate.of(2024, 1, 2),
                    LocalTime.of(8, 30, 0, 250_000_000)), sentParams(), "values as seen in Tokyo");
            assertEquals(instant, rs.getTimestamp(1, tokyo).toInstant());
            assertEquals(Instant.parse("2024-01-01T15:00:00Z"), Instant.ofEpochMilli(rs.getDate(2, tokyo).getTime()),
                    "midnight in Tokyo");
            assertEquals(LocalTime.of(8, 30, 0, 250_000_000),
                    LocalTime.ofInstant(Instant.ofEpochMilli(rs.getTime(3, tokyo).getTime()), tokyo.getTimeZone().toZoneId()));
        }
    }

    @Test
    void streamsAndLobsAreReadWhole() throws Exception {
        Blob blob = connection.createBlob();
        blob.setBytes(1, new byte[] {9, 8, 7});
        Clob clob = connection.createClob();
        clob.setString(1, "clob text");
        try (PreparedStatement ps = prepare(9)) {
            ps.setBinaryStream(1, new ByteArrayInputStream(new byte[] {1, 2, 3, 4}));
            ps.setBinaryStream(2, new ByteArrayInputStream(new byte[] {1, 2, 3, 4}), 2);
            ps.setAsciiStream(3, new ByteArrayInputStream("ascii".getBytes(StandardCharsets.US_ASCII)));
            ps.setCharacterStream(4, new StringReader("chars"), 4);
            ps.setBlob(5, blob);
            ps.setBlob(6, new ByteArrayInputStream(new byte[] {5}));
            ps.setClob(7, clob);
            ps.setClob(8, new StringReader("reader"));
            ps.setNClob(9, new StringReader("nclob"));
            ResultSet rs = run(ps);
            assertArrayEquals(new byte[] {1, 2, 3, 4}, rs.getBytes(1));
            assertArrayEquals(new byte[] {1, 2}, rs.getBinaryStream(2).readAllBytes());
            assertEquals("ascii", new String(rs.getAsciiStream(3).readAllBytes(), StandardCharsets.US_ASCII));
            assertEquals("char", rs.getString(4));
            Blob b = rs.getBlob(5);
            assertEquals(3, b.length());
            assertArrayEquals(new byte[] {8, 7}, b.getBytes(2, 5));
            assertArrayEquals(new byte[] {5}, rs.getBytes(6));
            assertEquals("clob text", rs.getClob(7).getSubString(1, 100));
            char[] buf = new char[10];
            assertEquals(6, rs.getCharacterStream(8).read(buf));
            assertEquals("nclob", rs.getNClob(9).getSubString(1, 5));
        }
    }

    @Test
    void nullsOfEveryTypeKeepTheirSqlTypeAndSetWasNull() throws Exception {
        int[] types = {Types.INTEGER, Types.BIGINT, Types.SMALLINT, Types.TINYINT, Types.BOOLEAN, Types.DOUBLE,
            Types.REAL, Types.DECIMAL, Types.VARCHAR, Types.DATE, Types.TIME, Types.TIMESTAMP, Types.VARBINARY,
            Types.BLOB, Types.CLOB};
        try (PreparedStatement ps = prepare(types.length + 12)) {
            for (int i = 0; i < types.length; i++) {
                ps.setNull(i + 1, types[i]);
            }
            int n = types.length;
            ps.setString(n + 1, null);
            ps.setBigDecimal(n + 2, null);
            ps.setDate(n + 3, null);
            ps.setTime(n + 4, null);
            ps.setTimestamp(n + 5, null);
            ps.setBytes(n + 6, null);
            ps.setBlob(n + 7, (Blob) null);
            ps.setClob(n + 8, (Clob) null);
            ps.setObject(n + 9, null);
            ps.setObject(n + 10, null, Types.NUMERIC);
            ps.setBinaryStream(n + 11, null);
            ps.setNull(n + 12, Types.VARCHAR, "TEXT");
            ResultSet rs = run(ps);

            List<Object> sent = sentParams();
            for (int i = 0; i < types.length; i++) {
                assertEquals(new SqlNull(types[i]), sent.get(i));
            }
            assertEquals(List.of(new SqlNull(Types.VARCHAR), new SqlNull(Types.DECIMAL), new SqlNull(Types.DATE),
                    new SqlNull(Types.TIME), new SqlNull(Types.TIMESTAMP), new SqlNull(Types.VARBINARY),
                    new SqlNull(Types.BLOB), new SqlNull(Types.CLOB), new SqlNull(Types.NULL),
                    new SqlNull(Types.NUMERIC), new SqlNull(Types.LONGVARBINARY), new SqlNull(Types.VARCHAR)),
                    sent.subList(n, sent.size()));
            for (int i = 1; i <= sent.size(); i++) {
                assertNull(rs.getObject(i));
                assertTrue(rs.wasNull());
                assertEquals(0, rs.getInt(i));
                assertTrue(rs.wasNull());
                assertFalse(rs.getBoolean(i));
                assertNull(rs.getString(i));
                assertNull(rs.getTimestamp(i));
                assertNull(rs.getBytes(i));
                assertNull(rs.getBigDecimal(i));
                assertNull(rs.getObject(i, LocalDate.class));
                assertTrue(rs.wasNull());
            }
            assertEquals(Types.DATE, rs.getMetaData().getColumnType(10), "the NULL's type reaches the metadata");
        }
    }

    @Test
    void setObjectDispatchesOnTheClass() throws Exception {
        UUID uuid = UUID.randomUUID();
        OffsetDateTime odt = OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneOffset.ofHours(2));
        java.util.Date utilDate = new java.util.Date(Timestamp.valueOf("2024-05-06 07:08:09").getTime());
        try (PreparedStatement ps = prepare(9)) {
            ps.setObject(1, 7);
            ps.setObject(2, new BigInteger("123456789012345678901234567890"));
            ps.setObject(3, 'x');
            ps.setObject(4, utilDate);
            ps.setObject(5, LocalDate.of(2024, 2, 29));
            ps.setObject(6, odt);
            ps.setObject(7, Instant.EPOCH);
            ps.setObject(8, uuid);
            ps.setObject(9, new byte[] {1});
            ResultSet rs = run(ps);
            List<Object> sent = sentParams();
            assertEquals(7, sent.get(0));
            assertEquals(new BigDecimal("123456789012345678901234567890"), sent.get(1));
            assertEquals("x", sent.get(2));
            assertEquals(LocalDateTime.of(2024, 5, 6, 7, 8, 9), sent.get(3));
            assertEquals(LocalDate.of(2024, 2, 29), rs.getObject(5, LocalDate.class));
            assertEquals(odt, rs.getObject(6, OffsetDateTime.class));
            assertEquals(odt.toInstant(), rs.getTimestamp(6).toInstant());
            assertEquals(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), sent.get(6));
            assertEquals(uuid, rs.getObject(8, UUID.class));
            assertArrayEquals(new byte[] {1}, (byte[]) rs.getObject(9));
            assertThrows(SQLException.class, () -> ps.setObject(1, new Object()));
        }
    }

    @Test
    void setObjectWithATargetTypeConverts() throws Exception {
        try (PreparedStatement ps = prepare(8)) {
            ps.setObject(1, "42", Types.INTEGER);
            ps.setObject(2, 1, Types.BOOLEAN);
            ps.setObject(3, "2024-01-02", Types.DATE);
            ps.setObject(4, 1.23756, Types.DECIMAL, 2);
            ps.setObject(5, 5L, Types.VARCHAR);
            ps.setObject(6, "7", JDBCType.BIGINT);
            ps.setObject(7, Date.valueOf("2024-03-04"), Types.TIMESTAMP);
            ps.setObject(8, "abc", Types.VARBINARY);
            run(ps);
            assertEquals(List.of(42, true, LocalDate.of(2024, 1, 2), new BigDecimal("1.24"), "5", 7L,
                    LocalDateTime.of(2024, 3, 4, 0, 0)), sentParams().subList(0, 7));
            assertArrayEquals("abc".getBytes(StandardCharsets.UTF_8), (byte[]) sentParams().get(7));
            SQLException e = assertThrows(SQLException.class, () -> ps.setObject(1, "forty", Types.INTEGER));
            assertEquals("22018", e.getSQLState());
        }
    }

    @Test
    void anUnsetParameterIsRefusedBeforeAnythingIsSent() throws Exception {
        try (PreparedStatement ps = connection.prepareStatement("select * from t where a = ? and b = '?' and c = ?")) {
            ps.setInt(1, 1);
            long executes = server.count(MessageType.EXECUTE);
            SQLException e = assertThrows(SQLException.class, ps::executeQuery);
            assertEquals("07001", e.getSQLState());
            assertTrue(e.getMessage().contains("parameter 2"), e.getMessage());
            assertEquals(executes, server.count(MessageType.EXECUTE));

            assertEquals("07009", assertThrows(SQLException.class, () -> ps.setInt(3, 1)).getSQLState());
            assertEquals("07009", assertThrows(SQLException.class, () -> ps.setInt(0, 1)).getSQLState());
            assertEquals(2, ps.getParameterMetaData().getParameterCount());

            ps.setInt(2, 2);
            run(ps);
            ps.clearParameters();
            assertEquals("07001", assertThrows(SQLException.class, ps::executeQuery).getSQLState());
        }
    }
}
