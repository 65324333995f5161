package org.phalanx.protocol;

import java.io.IOException;

/** A frame or message that does not follow the protocol: the connection it came on is closed. */
public class ProtocolException extends IOException {
    public ProtocolException(String message) {
        super(message);
    }
}
