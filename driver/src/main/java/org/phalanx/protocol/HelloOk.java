package org.phalanx.protocol;

/**
 * HELLO_OK: the session is open; product facts the driver reports through DatabaseMetaData, and
 * the transaction isolation level the session starts at (the virtual database's default).
 */
public record HelloOk(short version, String productName, String productVersion, long sessionId, int defaultIsolation) {

    public MessageWriter toMessage() {
        MessageWriter w = new MessageWriter(MessageType.HELLO_OK);
        w.writeShort(version).writeString(productName).writeString(productVersion).writeLong(sessionId)
                .writeInt(defaultIsolation);
        return w;
    }

    public static HelloOk readBody(MessageReader r) throws ProtocolException {
        return new HelloOk(r.readShort(), r.readString(), r.readString(), r.readLong(), r.readInt());
    }
}
