package org.phalanx.protocol;

/**
 * BATCH_RESULT: the update count of each element that ran; when an element failed, the error
 * (the client raises BatchUpdateException with the counts of the elements before it); the
 * generated keys of the elements, in order, when the batch asked for them and succeeded.
 */
public record BatchResult(long[] counts, ErrorReply error, ResultSetReply generatedKeys) {

    public BatchResult(long[] counts, ErrorReply error) {
        this(counts, error, null);
    }

    public MessageWriter toMessage() {
        MessageWriter w = new MessageWriter(MessageType.BATCH_RESULT, 16 + counts.length * 8);
        w.writeInt(counts.length);
        for (long c : counts) {
            w.writeLong(c);
        }
        w.writeBoolean(error != null);
        if (error != null) {
            error.writeBody(w);
        }
        w.writeBoolean(generatedKeys != null);
        if (generatedKeys != null) {
            generatedKeys.writeBody(w);
        }
        return w;
    }

    public static BatchResult readBody(MessageReader r) throws ProtocolException {
        int n = r.readCount();
        long[] counts = new long[n];
        for (int i = 0; i < n; i++) {
            counts[i] = r.readLong();
        }
        ErrorReply error = r.readBoolean() ? ErrorReply.readBody(r) : null;
        return new BatchResult(counts, error, r.readBoolean() ? ResultSetReply.readBody(r) : null);
    }
}
