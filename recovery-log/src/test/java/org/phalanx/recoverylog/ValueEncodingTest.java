package org.phalanx.recoverylog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ValueEncodingTest {

    /** Every supported type, with the values most likely to break an encoding. */
    static List<Object> everyValue() {
        List<Object> v = new ArrayList<>();
        v.add(null);
        v.add(new LogNull(Types.VARCHAR));
        v.add(new LogNull(Types.BLOB));
        v.add(new org.phalanx.engine.UntypedText("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"));
        v.add(true);
        v.add(false);
        v.add(Byte.MIN_VALUE);
        v.add(Byte.MAX_VALUE);
        v.add(Short.MIN_VALUE);
        v.add((short) 7);
        v.add(Integer.MIN_VALUE);
        v.add(Integer.MAX_VALUE);
        v.add(Long.MIN_VALUE);
        v.add(Long.MAX_VALUE);
        v.add(0.1f);
        v.add(-0.0f);
        v.add(Float.NaN);
        v.add(Float.intBitsToFloat(0x7fc00001)); // a NaN with a payload
        v.add(Float.NEGATIVE_INFINITY);
        v.add(Double.MIN_VALUE);
        v.add(-0.0d);
        v.add(Double.longBitsToDouble(0x7ff8000000000123L));
        v.add(Double.POSITIVE_INFINITY);
        v.add(new BigDecimal("12.50")); // the scale matters: 12.50 is not equal() to 12.5
        v.add(new BigDecimal("-0.000"));
        v.add(new BigDecimal(new BigInteger("-123456789012345678901234567890123456789"), -7));
        v.add("");
        v.add("plain ascii");
        v.add("é ü 漢字 😀 \u0000 \n\r\t ]]> <&>");
        v.add("lone \ud800 high and \udc00 low surrogates");
        v.add("x".repeat(100_000));
        v.add(new byte[0]);
        v.add(new byte[] {0, -1, 127, -128, 10, 13});
        v.add(LocalDate.of(2024, 2, 29));
        v.add(LocalDate.MIN);
        v.add(LocalDate.MAX);
        v.add(LocalTime.MIDNIGHT);
        v.add(LocalTime.of(23, 59, 59, 999_999_999));
        v.add(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_789));
        v.add(LocalDateTime.MAX);
        v.add(OffsetDateTime.of(2024, 3, 31, 2, 30, 0, 1, ZoneOffset.ofHoursMinutes(5, 45)));
        v.add(OffsetDateTime.MIN);
        v.add(OffsetDateTime.MAX);
        return v;
    }

    @Test
    void everyTypeRoundTripsExactly() throws IOException {
        List<Object> values = everyValue();
        List<Object> back = ValueEncoding.decodeList(ValueEncoding.encodeList(values));
        assertEquals(values.size(), back.size());
        for (int i = 0; i < values.size(); i++) {
            assertSame(values.get(i), back.get(i), "value " + i);
        }
    }

    static void assertSame(Object expected, Object actual, String what) {
        if (expected == null) {
            assertEquals(null, actual, what);
            return;
        }
        assertEquals(expected.getClass(), actual.getClass(), what);
        if (expected instanceof byte[] b) {
            assertArrayEquals(b, (byte[]) actual, what);
        } else if (expected instanceof Float f) {
            assertEquals(Float.floatToRawIntBits(f), Float.floatToRawIntBits((Float) actual), what);
        } else if (expected instanceof Double d) {
            assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits((Double) actual), what);
        } else if (expected instanceof BigDecimal d) {
            assertEquals(d.scale(), ((BigDecimal) actual).scale(), what);
            assertEquals(d, actual, what);
        } else {
            assertEquals(expected, actual, what);
        }
    }

    @Test
    void wholeEntriesRoundTrip() throws IOException {
        for (LogEntry e : List.of(
                new LogEntry(1, 0, "alice", LogEntry.Kind.STATEMENT, "INSERT INTO t VALUES (?, ?)", everyValue(),
                        Set.of("db1", "db2")),
                LogEntry.write(2, 99, null, "UPDATE t SET x = 1", null, Set.of()),
                LogEntry.commit(3, 99, "bob", Set.of("a,b", "c%d", "")),
                LogEntry.rollback(Long.MAX_VALUE, Long.MIN_VALUE, "", null))) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            EntryCodec.write(new DataOutputStream(bytes), e);
            LogEntry back = EntryReader.entry(EntryCodec.decode(bytes.toByteArray(), bytes.size()));
            assertEquals(e, back);
            assertEquals(e.hashCode(), back.hashCode());
        }
    }

    @Test
    void backendNamesSurviveTheJdbcColumn() {
        Set<String> names = Set.of("a,b", "c%d", "plain", "é");
        assertEquals(names, EntryRow.splitBackends(EntryRow.joinBackends(names)));
    }

    @Test
    void unsupportedTypesAreRefusedWhenTheEntryIsMade() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LogEntry.statement(1, "u", "INSERT", Arrays.asList(1, new java.util.Date()), Set.of()));
        assertTrue(e.getMessage().contains("parameter 2 has type java.util.Date"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LogEntry.statement(0, "u", "x", List.of(), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> LogEntry.write(1, 1, "u", null, List.of(), Set.of()));
    }

    @Test
    void entryKeepsItsOwnCopyOfByteArrays() {
        byte[] data = {1, 2, 3};
        LogEntry e = LogEntry.statement(1, "u", "INSERT", Arrays.asList(data), Set.of());
        data[0] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) e.params().get(0));
    }

    @Test
    void damagedEncodingsAreReportedNotMisread() {
        byte[] encoded = ValueEncoding.encodeList(List.of("abc", 5L));
        byte[] bad = encoded.clone();
        bad[4] = 99; // unknown tag
        assertThrows(IOException.class, () -> ValueEncoding.decodeList(bad));
        byte[] cut = Arrays.copyOf(encoded, encoded.length - 3);
        assertThrows(IOException.class, () -> ValueEncoding.decodeList(cut));
        byte[] hugeLength = ValueEncoding.encodeList(List.of("abcdefgh"));
        hugeLength[6] = 0x7f; // string length 2 GB
        assertThrows(IOException.class, () -> ValueEncoding.decodeList(hugeLength));
    }
}
