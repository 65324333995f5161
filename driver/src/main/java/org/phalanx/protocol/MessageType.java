package org.phalanx.protocol;

/**
 * The first byte of every frame. Requests go client to server, replies server to client;
 * every request gets exactly one reply, in order.
 */
public final class MessageType {
    // requests
    public static final byte HELLO = 0x01;
    public static final byte EXECUTE = 0x10;
    public static final byte BATCH = 0x11;
    public static final byte FETCH = 0x12;
    public static final byte CLOSE_CURSOR = 0x13;
    public static final byte SET_AUTO_COMMIT = 0x20;
    public static final byte COMMIT = 0x21;
    public static final byte ROLLBACK = 0x22;
    public static final byte SET_ISOLATION = 0x23;
    public static final byte SET_READ_ONLY = 0x24;
    /** Whether a request of an earlier connection was applied: string client session, int64 number, int64 age in ms. */
    public static final byte OUTCOME = 0x25;
    public static final byte METADATA = 0x30;
    public static final byte PING = 0x40;
    public static final byte CLOSE = 0x4F;

    // replies
    public static final byte OK = (byte) 0x80;
    public static final byte HELLO_OK = (byte) 0x81;
    public static final byte RESULT_SET = (byte) 0x82;
    public static final byte UPDATE_COUNT = (byte) 0x83;
    public static final byte ROWS = (byte) 0x84;
    public static final byte BATCH_RESULT = (byte) 0x85;
    public static final byte ERROR = (byte) 0xEE;

    private MessageType() {
    }
}
