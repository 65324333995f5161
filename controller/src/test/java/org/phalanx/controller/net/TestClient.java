package org.phalanx.controller.net;

import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.FrameIO;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.HelloOk;
import org.phalanx.protocol.MessageReader;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.Protocol;
import org.phalanx.protocol.ProtocolException;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** A raw protocol client: sends frames (well-formed or not) and reads replies. */
final class TestClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    TestClient(int port) throws IOException {
        this(port, 0);
    }

    /** @param receiveBuffer the socket's receive buffer, set before connecting (0: the system's) */
    TestClient(int port, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new java.net.InetSocketAddress("127.0.0.1", port));
        socket.setSoTimeout(5_000);
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        out = socket.getOutputStream();
    }

    void send(MessageWriter message) throws IOException {
        FrameIO.write(out, message);
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    MessageReader receive() throws IOException {
        byte[] frame = FrameIO.read(in, Protocol.DEFAULT_MAX_FRAME);
        assertNotNull(frame, "the server closed the connection instead of replying");
        return new MessageReader(frame);
    }

    MessageReader call(MessageWriter request) throws IOException {
        send(request);
        return receive();
    }

    HelloOk login(String vdb, String user, String password) throws IOException {
        MessageReader reply = call(hello(vdb, user, password));
        if (reply.type() == MessageType.ERROR) {
            throw new AssertionError("login refused: " + ErrorReply.readBody(reply));
        }
        assertEquals(MessageType.HELLO_OK, reply.type());
        return HelloOk.readBody(reply);
    }

    static MessageWriter hello(String vdb, String user, String password) {
        return new Hello(Protocol.VERSION, vdb, user, password, Map.of()).toMessage();
    }

    /** The reply must be OK. */
    void ok(MessageWriter request) throws IOException {
        MessageReader reply = call(request);
        if (reply.type() == MessageType.ERROR) {
            throw new AssertionError("expected OK, got " + ErrorReply.readBody(reply));
        }
        assertEquals(MessageType.OK, reply.type());
        reply.end();
    }

    static ErrorReply error(MessageReader reply) throws ProtocolException {
        assertEquals(MessageType.ERROR, reply.type(), "expected an ERROR reply");
        ErrorReply error = ErrorReply.readBody(reply);
        reply.end();
        return error;
    }

    static MessageWriter message(byte type) {
        return new MessageWriter(type);
    }

    /** Whether the server has closed the connection (end of stream or reset) within the read timeout. */
    boolean closedByServer() throws IOException {
        try {
            while (true) {
                int b = in.read();
                if (b < 0) {
                    return true;
                }
                // an unread reply before the close is fine; keep reading to the end
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
