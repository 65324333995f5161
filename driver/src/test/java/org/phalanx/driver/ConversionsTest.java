package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

/** JDBC's getter conversions between the wire value types. */
class ConversionsTest {
    private static final ZoneId LOCAL = ZoneId.systemDefault();

    @Test
    void stringsFromEveryType() {
        assertEquals("42", Conversions.toStringValue(42));
        assertEquals("1.5", Conversions.toStringValue(1.5));
        assertEquals("100000000000000000000", Conversions.toStringValue(new BigDecimal("1E+20")));
        assertEquals("true", Conversions.toStringValue(true));
        assertEquals("2024-01-02", Conversions.toStringValue(LocalDate.of(2024, 1, 2)));
        assertEquals("03:04:00", Conversions.toStringValue(LocalTime.of(3, 4)));
        assertEquals("2024-01-02 03:04:05.12", Conversions.toStringValue(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 120_000_000)));
        // an instant is written in this JVM's zone, as PostgreSQL writes a timestamptz for pgjdbc
        OffsetDateTime instant = OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneOffset.ofHours(2));
        java.util.TimeZone jvmZone = java.util.TimeZone.getDefault();
        try {
            java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("Asia/Kolkata"));
            assertEquals("2024-01-02 06:34:05+05:30", Conversions.toStringValue(instant));
            java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("America/New_York"));
            assertEquals("2024-01-01 20:04:05-05", Conversions.toStringValue(instant));
        } finally {
            java.util.TimeZone.setDefault(jvmZone);
        }
        assertEquals("hi", Conversions.toStringValue("hi".getBytes()));
    }

    @Test
    void integralConversionsTruncateAndCheckRange() throws SQLException {
        assertEquals(42, Conversions.toInt("42"));
        assertEquals(7, Conversions.toInt(" 7 "));
        assertEquals(3, Conversions.toInt(3.9));
        assertEquals(-2, Conversions.toInt(new BigDecimal("-2.5")));
        assertEquals(1000, Conversions.toInt("1e3"));
        assertEquals(1, Conversions.toInt(true));
        assertEquals(Long.MAX_VALUE, Conversions.toLong(Long.toString(Long.MAX_VALUE)));
        assertEquals(-128, Conversions.toByte((short) -128));
        assertEquals("22003", assertThrows(SQLException.class, () -> Conversions.toInt(Long.MAX_VALUE)).getSQLState());
        assertEquals("22003", assertThrows(SQLException.class, () -> Conversions.toByte(128)).getSQLState());
        assertEquals("22003", assertThrows(SQLException.class, () -> Conversions.toLong(Double.NaN)).getSQLState());
        assertEquals("22003", assertThrows(SQLException.class,
                () -> Conversions.toLong(new BigDecimal("1e30"))).getSQLState());
        assertEquals("22018", assertThrows(SQLException.class, () -> Conversions.toInt("abc")).getSQLState());
        assertEquals("22018", assertThrows(SQLException.class,
                () -> Conversions.toInt(LocalDate.of(2024, 1, 1))).getSQLState());
    }

    @Test
    void floatingPointAndDecimals() throws SQLException {
        assertEquals(2.5, Conversions.toDouble("2.5"));
        assertEquals(7.0, Conversions.toDouble(7L));
        assertEquals(0.25f, Conversions.toFloat(new BigDecimal("0.25")));
        assertEquals(new BigDecimal("0.1"), Conversions.toBigDecimal(0.1));
        assertEquals(new BigDecimal("1.1"), Conversions.toBigDecimal(1.1f));
        assertEquals(new BigDecimal("12"), Conversions.toBigDecimal(12));
        assertEquals(new BigDecimal("-3.50"), Conversions.toBigDecimal(" -3.50 "));
        assertThrows(SQLException.class, () -> Conversions.toBigDecimal(Double.NaN));
        assertThrows(SQLException.class, () -> Conversions.toDouble("x"));
    }

    @Test
    void booleansFromNumbersAndStrings() throws SQLException {
        for (Object t : new Object[] {true, 1, 5L, (byte) 1, new BigDecimal("1.0"), 0.5, "true", "TRUE", " 1 ", "t", "yes", "on"}) {
            assertTrue(Conversions.toBoolean(t), String.valueOf(t));
        }
        for (Object f : new Object[] {false, 0, 0L, (short) 0, BigDecimal.ZERO, 0.0, "false", "0", "f", "no", "off"}) {
            assertFalse(Conversions.toBoolean(f), String.valueOf(f));
        }
        assertEquals("22018", assertThrows(SQLException.class, () -> Conversions.toBoolean("maybe")).getSQLState());
    }

    @Test
    void datesFromTemporalsTextAndEpochMillis() throws SQLException {
        java.sql.Date expected = java.sql.Date.valueOf("2024-01-02");
        assertEquals(expected, Conversions.toSqlDate(LocalDate.of(2024, 1, 2), LOCAL));
        assertEquals(expected, Conversions.toSqlDate(LocalDateTime.of(2024, 1, 2, 23, 59), LOCAL));
        assertEquals(expected, Conversions.toSqlDate("2024-01-02", LOCAL));
        assertEquals(expected, Conversions.toSqlDate("2024-01-02 03:04:05.123", LOCAL));
        long noon = LocalDateTime.of(2024, 1, 2, 12, 0).atZone(LOCAL).toInstant().toEpochMilli();
        assertEquals(expected, Conversions.toSqlDate(noon, LOCAL));
        assertThrows(SQLException.class, () -> Conversions.toSqlDate(LocalTime.NOON, LOCAL));
        assertThrows(SQLException.class, () -> Conversions.toSqlDate("yesterday", LOCAL));
    }

    @Test
    void timestampsFromTemporalsTextAndEpochMillis() throws SQLException {
        Timestamp expected = Timestamp.valueOf("2024-01-02 03:04:05.123");
        assertEquals(expected, Conversions.toSqlTimestamp("2024-01-02 03:04:05.123", LOCAL));
        assertEquals(expected, Conversions.toSqlTimestamp("2024-01-02T03:04:05.123", LOCAL));
        assertEquals(expected, Conversions.toSqlTimestamp(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000), LOCAL));
        assertEquals(expected, Conversions.toSqlTimestamp(expected.getTime(), LOCAL));
        assertEquals(Timestamp.valueOf("2024-01-02 00:00:00"), Conversions.toSqlTimestamp("2024-01-02", LOCAL));
        Instant instant = Instant.parse("2024-01-02T01:04:05Z");
        assertEquals(instant, Conversions.toSqlTimestamp("2024-01-02 03:04:05+02", LOCAL).toInstant());
        assertEquals(instant, Conversions.toSqlTimestamp("2024-01-02 03:04:05+0200", LOCAL).toInstant());
        assertEquals(instant, Conversions.toSqlTimestamp("2024-01-02T01:04:05Z", LOCAL).toInstant());
        assertEquals(instant, Conversions.toSqlTimestamp(
                OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneOffset.ofHours(2)), LOCAL).toInstant());
    }

    @Test
    void timesKeepMilliseconds() throws SQLException {
        Time t = Conversions.toSqlTime("03:04:05.250", LOCAL);
        assertEquals(LocalTime.of(3, 4, 5, 250_000_000), DateTimes.localTime(t, LOCAL));
        assertEquals(Time.valueOf("03:04:05"), Conversions.toSqlTime(LocalDateTime.of(2024, 1, 2, 3, 4, 5), LOCAL));
        assertEquals(Time.valueOf("03:04:00"), Conversions.toSqlTime("03:04", LOCAL));
    }

    @Test
    void getObjectWithAClass() throws SQLException {
        assertEquals(LocalDate.of(2024, 1, 2), Conversions.toClass("2024-01-02", LocalDate.class));
        assertEquals(LocalDateTime.of(2024, 1, 2, 3, 4, 5),
                Conversions.toClass(java.sql.Timestamp.valueOf("2024-01-02 03:04:05").getTime(), LocalDateTime.class));
        assertEquals(LocalTime.of(3, 4), Conversions.toClass(LocalDateTime.of(2024, 1, 2, 3, 4), LocalTime.class));
        assertEquals(Integer.valueOf(5), Conversions.toClass("5", Integer.class));
        assertEquals(BigInteger.TEN, Conversions.toClass(10L, BigInteger.class));
        assertEquals(Boolean.TRUE, Conversions.toClass(1, Boolean.class));
        assertEquals("7", Conversions.toClass(7, String.class));
        assertArrayEquals(new byte[] {1, 2}, Conversions.toClass(new byte[] {1, 2}, byte[].class));
        assertInstanceOf(Blob.class, Conversions.toClass(new byte[] {1}, Blob.class));
        assertEquals("c", ((Clob) Conversions.toClass("c", Clob.class)).getSubString(1, 1));
        assertEquals(Instant.parse("2024-01-02T00:00:00Z"),
                Conversions.toClass(OffsetDateTime.parse("2024-01-02T01:00:00+01:00"), Instant.class));
        assertEquals(Timestamp.valueOf("2024-01-02 03:04:05"),
                Conversions.toClass(LocalDateTime.of(2024, 1, 2, 3, 4, 5), java.util.Date.class));
        assertThrows(SQLException.class, () -> Conversions.toClass("x", Thread.class));
    }

    @Test
    void naturalTypesUseTheJavaSqlDateTimeClasses() throws SQLException {
        assertEquals(java.sql.Date.valueOf("2024-01-02"), Conversions.toNatural(LocalDate.of(2024, 1, 2)));
        assertEquals(Timestamp.valueOf("2024-01-02 03:04:05"), Conversions.toNatural(LocalDateTime.of(2024, 1, 2, 3, 4, 5)));
        assertInstanceOf(Time.class, Conversions.toNatural(LocalTime.NOON));
        assertEquals(Timestamp.from(Instant.EPOCH), Conversions.toNatural(OffsetDateTime.ofInstant(Instant.EPOCH, ZoneOffset.UTC)));
        assertEquals(12L, Conversions.toNatural(12L));
    }
}
