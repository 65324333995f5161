package org.phalanx.protocol;

/**
 * UPDATE_COUNT reply to EXECUTE: the count, then whether generated keys follow, then (if so)
 * the keys as a {@link ResultSetReply} body holding every row (cursor id 0).
 */
public record UpdateCount(long count, ResultSetReply generatedKeys) {

    public MessageWriter toMessage() {
        MessageWriter w = new MessageWriter(MessageType.UPDATE_COUNT, generatedKeys == null ? 16 : 1024);
        w.writeLong(count).writeBoolean(generatedKeys != null);
        if (generatedKeys != null) {
            generatedKeys.writeBody(w);
        }
        return w;
    }

    public static UpdateCount readBody(MessageReader r) throws ProtocolException {
        long count = r.readLong();
        return new UpdateCount(count, r.readBoolean() ? ResultSetReply.readBody(r) : null);
    }
}
