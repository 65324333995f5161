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
}
