package org.phalanx.protocol;

import java.sql.SQLException;

/** ERROR reply: what the client rethrows as SQLException (SQLState, vendor code, message). */
public record ErrorReply(String sqlState, int vendorCode, String message) {

    public static ErrorReply of(SQLException e) {
        return new ErrorReply(e.getSQLState(), e.getErrorCode(), e.getMessage());
    }

    public MessageWriter toMessage() {
        MessageWriter w = new MessageWriter(MessageType.ERROR);
        writeBody(w);
        return w;
    }

    public void writeBody(MessageWriter w) {
        w.writeString(sqlState).writeInt(vendorCode).writeString(message);
    }

    public static ErrorReply readBody(MessageReader r) throws ProtocolException {
        return new ErrorReply(r.readString(), r.readInt(), r.readString());
    }
}
