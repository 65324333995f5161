package org.phalanx.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Frames, values and messages survive a round trip; malformed input is a ProtocolException. */
class CodecTest {

    private static byte[] frameBytes(MessageWriter w) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FrameIO.write(out, w);
        return out.toByteArray();
    }

    private static MessageReader roundTrip(MessageWriter w) throws IOException {
        byte[] frame = FrameIO.read(new DataInputStream(new ByteArrayInputStream(frameBytes(w))), 1 << 20);
        return new MessageReader(frame);
    }

    private static Object valueRoundTrip(Object v) throws IOException {
        MessageReader r = roundTrip(new MessageWriter(MessageType.EXECUTE).writeValue(v));
        Object back = r.readValue();
        r.end();
        return back;
    }

    @Test
    void everyValueTypeRoundTrips() throws IOException {
        List<Object> values = List.of(true, false, (byte) -3, (short) 32000, Integer.MIN_VALUE, Long.MAX_VALUE,
                1.25f, Double.NaN, -0.0, new BigDecimal("-12345678901234567890.000123"), BigDecimal.ZERO,
                new BigDecimal("1E+30"), "", "üñí ✓ 𝄞", LocalDate.of(-500, 2, 28), LocalDate.of(9999, 12, 31),
                LocalTime.MAX, LocalTime.MIDNIGHT, LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_999_999),
                LocalDateTime.of(1900, 1, 1, 0, 0), OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 6, ZoneOffset.ofHoursMinutes(-5, -30)),
                new SqlNull(Types.DATE), new SqlNull(Types.NULL));
        for (Object v : values) {
            assertEquals(v, valueRoundTrip(v), String.valueOf(v));
        }
        assertArrayEquals(new byte[] {0, -1, 127}, (byte[]) valueRoundTrip(new byte[] {0, -1, 127}));
        assertArrayEquals(new byte[0], (byte[]) valueRoundTrip(new byte[0]));
    }

    @Test
    void javaTypesAreConvertedToTheirWireForm() throws IOException {
        assertEquals(new SqlNull(Types.NULL), valueRoundTrip(null));
        assertEquals(new BigDecimal("123456789012345678901234567890"),
                valueRoundTrip(new BigInteger("123456789012345678901234567890")));
        assertEquals("c", valueRoundTrip('c'));
        assertEquals(LocalDate.of(2024, 1, 2), valueRoundTrip(java.sql.Date.valueOf("2024-01-02")));
        assertEquals(LocalTime.of(3, 4, 5), valueRoundTrip(java.sql.Time.valueOf("03:04:05")));
        assertEquals(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 7),
                valueRoundTrip(java.sql.Timestamp.valueOf("2024-01-02 03:04:05.000000007")));
        assertEquals(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), valueRoundTrip(Instant.EPOCH));
        assertThrows(IllegalArgumentException.class, () -> valueRoundTrip(new Object()));
    }

    @Test
    void malformedValuesAreProtocolExceptions() {
        // tag, then a payload that is invalid for it
        List<byte[]> bad = List.of(
                new byte[] {99},                                    // unknown tag
                new byte[] {ValueCodec.INT, 0, 0},                  // truncated int
                new byte[] {ValueCodec.BOOLEAN, 2},                 // not a boolean
                new byte[] {ValueCodec.STRING, -1, -1, -1, -1},     // null string
                new byte[] {ValueCodec.STRING, 0, 0, 0, 9, 'a'},    // length beyond the message
                new byte[] {ValueCodec.BYTES, -1, -1, -1, -2},      // negative length
                new byte[] {ValueCodec.DECIMAL, 0, 0, 0, 0, 0, 0, 0, 0}, // decimal without digits
                new byte[] {ValueCodec.TIME, 127, -1, -1, -1, -1, -1, -1, -1}, // time beyond a day
                new byte[] {ValueCodec.TIMESTAMP_TZ, 127, -1, -1, -1, -1, -1, -1, -1, 127, -1, -1, -1, 0, 0, 0, 0},
                new byte[] {ValueCodec.TIMESTAMP_TZ, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 0}); // bad offset
        for (byte[] body : bad) {
            byte[] frame = new byte[body.length + 1];
            frame[0] = MessageType.EXECUTE;
            System.arraycopy(body, 0, frame, 1, body.length);
            assertThrows(ProtocolException.class, () -> new MessageReader(frame).readValue(), Arrays.toString(body));
        }
    }

    @Test
    void framesAreLengthCheckedBeforeAllocation() throws IOException {
        byte[] ok = frameBytes(new MessageWriter(MessageType.PING));
        assertArrayEquals(new byte[] {0, 0, 0, 1, MessageType.PING}, ok);

        DataInputStream empty = new DataInputStream(new ByteArrayInputStream(new byte[0]));
        assertNull(FrameIO.read(empty, 100), "a clean end of stream between frames");

        byte[] oversized = {0x7F, -1, -1, -1, 1};
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> FrameIO.read(new DataInputStream(new ByteArrayInputStream(oversized)), 1024));
        assertTrue(e.getMessage().contains("exceeds"), e.getMessage());

        for (byte[] bad : List.of(new byte[] {0, 0, 0, 0}, new byte[] {-1, -1, -1, -1})) {
            assertThrows(ProtocolException.class,
                    () -> FrameIO.read(new DataInputStream(new ByteArrayInputStream(bad)), 1024));
        }

        byte[] truncated = {0, 0, 0, 10, MessageType.PING, 1, 2};
        assertThrows(ProtocolException.class,
                () -> FrameIO.read(new DataInputStream(new ByteArrayInputStream(truncated)), 1024));

        byte[] truncatedLength = {0, 0};
        assertThrows(IOException.class,
                () -> FrameIO.read(new DataInputStream(new ByteArrayInputStream(truncatedLength)), 1024));
    }

    @Test
    void leftoverBytesAreRejected() throws IOException {
        MessageReader r = roundTrip(new MessageWriter(MessageType.FETCH).writeInt(1).writeInt(2));
        r.readInt();
        assertThrows(ProtocolException.class, r::end);
    }

    @Test
    void messagesRoundTrip() throws IOException {
        Hello hello = new Hello(Protocol.VERSION, "vdb", "u", null, Map.of("k", "v"));
        MessageReader r = roundTrip(hello.toMessage());
        assertEquals(MessageType.HELLO, r.type());
        assertEquals(hello, Hello.readBody(r));

        Execute execute = new Execute(Execute.UPDATE, "insert ?", List.of(1, "x", new SqlNull(Types.BLOB)),
                Execute.NAMED_KEYS, List.of("id"), 5, 100, 30, true);
        r = roundTrip(execute.toMessage());
        assertEquals(execute, Execute.readBody(r));
        r.end();

        Batch batch = new Batch("insert ?", List.of(), List.of(List.of(1), List.of(2)), 0);
        r = roundTrip(batch.toMessage());
        assertEquals(batch, Batch.readBody(r));
        Batch keyed = new Batch("insert ?", List.of(), List.of(List.of(1)), 5, Execute.NAMED_KEYS, List.of("id"));
        assertEquals(keyed, Batch.readBody(roundTrip(keyed.toMessage())));

        ColumnInfo col = ColumnInfo.simple("id", Types.BIGINT, "BIGINT");
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {7L});
        UpdateCount count = new UpdateCount(3, new ResultSetReply(0, List.of(col), new RowBatch(rows, true)));
        r = roundTrip(count.toMessage());
        assertEquals(MessageType.UPDATE_COUNT, r.type());
        UpdateCount back = UpdateCount.readBody(r);
        r.end();
        assertEquals(3, back.count());
        assertEquals(List.of(col), back.generatedKeys().columns());
        assertEquals(7L, back.generatedKeys().firstBatch().rows().get(0)[0]);
        assertNull(UpdateCount.readBody(roundTrip(new UpdateCount(1, null).toMessage())).generatedKeys());

        BatchResult result = BatchResult.readBody(roundTrip(
                new BatchResult(new long[] {1, 2}, new ErrorReply("23505", 1, "dup")).toMessage()));
        assertArrayEquals(new long[] {1, 2}, result.counts());
        assertEquals(new ErrorReply("23505", 1, "dup"), result.error());
        assertNull(result.generatedKeys());
        BatchResult withKeys = BatchResult.readBody(roundTrip(new BatchResult(new long[] {1}, null,
                new ResultSetReply(0, List.of(col), new RowBatch(rows, true))).toMessage()));
        assertEquals(7L, withKeys.generatedKeys().firstBatch().rows().get(0)[0]);
    }

    @Test
    void invalidMessagesAreRejected() throws IOException {
        MessageWriter notPhalanx = new MessageWriter(MessageType.HELLO).writeInt(0x12345678);
        assertThrows(ProtocolException.class, () -> Hello.readBody(roundTrip(notPhalanx)));

        MessageWriter badMode = new MessageWriter(MessageType.EXECUTE).writeByte(9);
        assertThrows(ProtocolException.class, () -> Execute.readBody(roundTrip(badMode)));

        MessageWriter mixed = new Batch(null, List.of("a"), List.of(), 0).toMessage();
        assertInstanceOf(Batch.class, Batch.readBody(roundTrip(mixed)));
        MessageWriter hugeCount = new MessageWriter(MessageType.BATCH).writeString(null).writeInt(1_000_000);
        assertThrows(ProtocolException.class, () -> Batch.readBody(roundTrip(hugeCount)));
    }
}
