package org.phalanx.protocol;

/** HELLO_OK: the session is open; product facts the driver reports through DatabaseMetaData. */
public record HelloOk(short version, String productName, String productVersion, long sessionId) {

    public MessageWriter toMessage() {
        MessageWriter w = new MessageWriter(MessageType.HELLO_OK);
        w.writeShort(version).writeString(productName).writeString(productVersion).writeLong(sessionId);
        return w;
    }

    public static HelloOk readBody(MessageReader r) throws ProtocolException {
        return new HelloOk(r.readShort(), r.readString(), r.readString(), r.readLong());
    }
}
