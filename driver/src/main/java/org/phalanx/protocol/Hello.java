package org.phalanx.protocol;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * HELLO, the first frame of a connection: magic, protocol version, then the credentials.
 * The server answers HELLO_OK or ERROR (28000 for bad credentials) and reads nothing else first.
 */
public record Hello(short version, String vdb, String user, String password, Map<String, String> properties) {

    public MessageWriter toMessage() {
        MessageWriter w = new MessageWriter(MessageType.HELLO);
        w.writeInt(Protocol.MAGIC).writeShort(version).writeString(vdb).writeString(user).writeString(password);
        w.writeInt(properties.size());
        properties.forEach((k, v) -> w.writeString(k).writeString(v));
        return w;
    }

    public static Hello readBody(MessageReader r) throws ProtocolException {
        if (r.readInt() != Protocol.MAGIC) {
            throw new ProtocolException("not a Phalanx client (bad magic)");
        }
        short version = r.readShort();
        String vdb = r.readString();
        String user = r.readString();
        String password = r.readString();
        int n = r.readCount();
        Map<String, String> props = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            props.put(r.readString(), r.readString());
        }
        return new Hello(version, vdb, user, password, props);
    }
}
