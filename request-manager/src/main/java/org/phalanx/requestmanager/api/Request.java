package org.phalanx.requestmanager.api;

import java.util.List;

/**
 * One statement as a client sent it.
 *
 * @param params       values as decoded from the wire: null or {@link TypedNull}, Boolean, Byte,
 *                     Short, Integer, Long, Float, Double, BigDecimal, String, byte[], LocalDate,
 *                     LocalTime, LocalDateTime, OffsetDateTime
 * @param expect       what the client's call requires the statement to produce
 * @param keyColumns   null: no generated keys wanted; empty: driver-chosen keys; else these columns
 * @param maxRows      0 for no limit
 * @param fetchSize    hint for the backend statement (0: driver default)
 */
public record Request(String sql, List<Object> params, Expect expect, List<String> keyColumns,
                      int maxRows, int fetchSize, int queryTimeoutSeconds) {

    public enum Expect { ROWS, UPDATE_COUNT, ANY }

    public static Request of(String sql, Object... params) {
        return new Request(sql, List.of(params), Expect.ANY, null, 0, 0, 0);
    }

    /** The same request with another text (what the session substituted into it). */
    public Request withSql(String text) {
        return new Request(text, params, expect, keyColumns, maxRows, fetchSize, queryTimeoutSeconds);
    }

    public boolean wantsKeys() {
        return keyColumns != null;
    }

    /** About how many bytes the statement and its values take on the wire (text counted one byte a character). */
    public long approximateBytes() {
        long bytes = sql.length();
        for (Object p : params) {
            bytes += p instanceof byte[] b ? b.length : p instanceof String s ? s.length() : 16;
        }
        return bytes;
    }

    /**
     * The same, counting the text as UTF-8 bytes, as a server receives it (a CJK character is
     * three): for a limit in bytes ({@code max_allowed_packet}). Counted only when the text could
     * pass {@code limit}; below it, {@link #approximateBytes} (at most a third of it) is returned.
     */
    public long bytesUpTo(long limit) {
        long approximate = approximateBytes();
        if (approximate * 3 <= limit) {
            return approximate;
        }
        long bytes = utf8Length(sql);
        for (Object p : params) {
            bytes += p instanceof byte[] b ? b.length : p instanceof String s ? utf8Length(s) : 16;
        }
        return bytes;
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3; // a pair: 4 bytes
        }
        return n;
    }
}
