package org.phalanx.driver;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.phalanx.protocol.Untyped;
import org.phalanx.protocol.Batch;
import org.phalanx.protocol.BatchResult;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.FrameIO;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.HelloOk;
import org.phalanx.protocol.MessageReader;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.MetadataRequest;
import org.phalanx.protocol.Protocol;
import org.phalanx.protocol.ProtocolException;
import org.phalanx.protocol.ResultSetReply;
import org.phalanx.protocol.RowBatch;
import org.phalanx.protocol.UpdateCount;

/**
 * The protocol side of a connection: one socket, one request on the wire at a time, one reply
 * read for each. Knows nothing of java.sql objects; the facade classes call these methods.
 *
 * <p>Any I/O or protocol failure leaves the reply stream at an unknown position, so it marks
 * the connection broken for good (SQLState 08006) and closes the socket.
 */
final class ProtocolConnection {

    /** What EXECUTE produced: exactly one of the two is set. */
    /**
     * OUTCOME's answer for a request applied: a statement's update count (with the keys it generated,
     * from protocol version 4), or a batch's counts element by element (version 4: a batch the
     * controller ran element by element).
     */
    record Applied(UpdateCount updateCount, BatchResult batch) {
    }

    record ExecuteReply(ResultSetReply resultSet, UpdateCount updateCount) {
    }

    @FunctionalInterface
    private interface ReplyReader<T> {
        T read(MessageReader r) throws ProtocolException;
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final ConnectionUrl.HostAndPort address;
    private HelloOk hello;
    /** The connection broke after the last request had been sent whole: the controller may have carried it out. */
    private volatile boolean brokenAfterSending;
    /** This connection's id for the controller ({@link Protocol#CLIENT_SESSION}): its requests are numbered under it. */
    private String clientSession;
    /** Requests sent after HELLO: the number of the last one (the controller counts the same). */
    private long requestsSent;
    private long lastRequestNanos;
    private volatile boolean broken;
    private volatile boolean closed;

    private ProtocolConnection(Socket socket, ConnectionUrl.HostAndPort address) throws IOException {
        this.socket = socket;
        this.address = address;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
        this.out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
    }

    /**
     * Tries each host in the URL's connect order ({@link ConnectionUrl#hostsToTry}); the first that
     * accepts the TCP connection and answers HELLO wins. A host that refuses, times out, drops the
     * connection or answers that it does not serve the virtual database (08004: not the primary of
     * its group, or not hosting it) is skipped; any other ERROR answering HELLO (bad credentials) is
     * final. When no host served, and this is a failover or some host said it does not serve the
     * virtual database yet, the hosts are tried again until the failover timeout.
     *
     * @param failed the controllers a connection just lost (tried last, oldest first); empty for a new connection
     */
    static ProtocolConnection open(ConnectionUrl url, List<ConnectionUrl.HostAndPort> failed) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(
                url.intProperty(ConnectionUrl.FAILOVER_TIMEOUT, ConnectionUrl.DEFAULT_FAILOVER_TIMEOUT_MS));
        while (true) {
            Attempt attempt = new Attempt();
            ProtocolConnection pc = attempt.tryHosts(url, failed);
            if (pc != null) {
                return pc;
            }
            if ((failed.isEmpty() && !attempt.notServed) || System.nanoTime() > deadline) {
                throw SqlExceptions.create("could not connect to virtual database '" + url.vdb() + "' on any of "
                        + String.join(", ", attempt.failures), SqlExceptions.CONNECTION_FAILED, 0, attempt.last);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw SqlExceptions.create("interrupted while connecting", SqlExceptions.CONNECTION_FAILED, 0, e);
            }
        }
    }

    /** One round over the URL's hosts. */
    private static final class Attempt {
        final List<String> failures = new ArrayList<>();
        Exception last;
        /** Some host answered that it does not serve the virtual database (yet). */
        boolean notServed;

        ProtocolConnection tryHosts(ConnectionUrl url, List<ConnectionUrl.HostAndPort> failed) throws SQLException {
            int connectTimeout = url.intProperty(ConnectionUrl.CONNECT_TIMEOUT, ConnectionUrl.DEFAULT_CONNECT_TIMEOUT_MS);
            int socketTimeout = url.intProperty(ConnectionUrl.SOCKET_TIMEOUT, 0);
            String clientSession = UUID.randomUUID().toString().replace("-", "");
            Map<String, String> properties = new LinkedHashMap<>(url.sessionProperties());
            properties.put(Protocol.CLIENT_SESSION, clientSession);
            properties.put(Protocol.TIME_ZONE, java.util.TimeZone.getDefault().getID());
            for (ConnectionUrl.HostAndPort host : url.hostsToTry(failed)) {
                short version = Protocol.VERSION;
                ProtocolConnection pc;
                while ((pc = tryHost(url, host, new Hello(version, url.vdb(), url.user(), url.password(), properties),
                        clientSession, connectTimeout, socketTimeout)) == null && olderVersion != 0) {
                    version = olderVersion; // a controller of an older release: its version, on a new connection
                    olderVersion = 0;
                }
                if (pc != null) {
                    return pc;
                }
            }
            return null;
        }

        /**
         * A connection to {@code host}, or null when it failed in a way that lets the next host be
         * tried (or, with {@link #olderVersion} set, this one again in that version).
         */
        private ProtocolConnection tryHost(ConnectionUrl url, ConnectionUrl.HostAndPort host, Hello hello,
                                           String clientSession, int connectTimeout, int socketTimeout)
                throws SQLException {
            Socket socket = new Socket();
            ProtocolConnection pc = null;
            try {
                socket.setTcpNoDelay(true); // request/reply: never wait to coalesce small frames
                socket.setKeepAlive(true);
                socket.connect(new InetSocketAddress(host.host(), host.port()), connectTimeout);
                // The handshake gets the connect timeout so a half-open host still fails over.
                socket.setSoTimeout(connectTimeout);
                if (url.ssl()) {
                    socket = Tls.over(socket, host.host(), host.port(), url);
                }
                pc = new ProtocolConnection(socket, host);
                pc.handshake(hello);
                pc.clientSession = clientSession;
                pc.requestsSent = 0; // numbered from the first request after HELLO
                socket.setSoTimeout(socketTimeout);
                return pc;
            } catch (IOException e) {
                closeQuietly(socket);
                failures.add(host + " (" + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
                last = e;
            } catch (SQLException e) {
                closeQuietly(socket);
                if (pc != null && pc.broken && e.getCause() instanceof IOException io) {
                    // a controller serving TLS only closes a plain connection without a word
                    failures.add(host + " (" + io.getMessage() + (url.ssl() ? "" : "; if it requires TLS, connect"
                            + " with ssl=true") + ")");
                    last = io;
                } else if (e.getErrorCode() == Protocol.NOT_SERVED_HERE && "08004".equals(e.getSQLState())) {
                    failures.add(host + " (" + e.getMessage() + ")");
                    last = e;
                    notServed = true;
                } else {
                    olderVersion = OlderController.version(e, hello.version());
                    if (olderVersion == 0) {
                        throw e;
                    }
                }
            }
            return null;
        }

        /** Set by {@link #tryHost} when the host speaks only this older protocol version; else 0. */
        private short olderVersion;
    }

    private void handshake(Hello request) throws SQLException {
        MessageWriter message = request.toMessage();
        int bytes = message.payloadLength();
        if (bytes > Protocol.MAX_HELLO_FRAME) {
            // the controller would close the connection without a word
            throw SqlExceptions.create("the login (user name, password and connection properties) takes " + bytes
                    + " bytes, more than the " + Protocol.MAX_HELLO_FRAME + " a controller reads before authentication",
                    "28000");
        }
        hello = call(message, r -> {
            expect(r, MessageType.HELLO_OK);
            return HelloOk.readBody(r);
        });
    }

    HelloOk hello() {
        return hello;
    }

    ConnectionUrl.HostAndPort address() {
        return address;
    }

    /** This connection's id for the controller; its last request's number; how long ago that was sent. */
    String clientSession() {
        return clientSession;
    }

    synchronized long lastRequestNumber() {
        return requestsSent;
    }

    synchronized long millisSinceLastRequest() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastRequestNanos);
    }

    /**
     * OUTCOME: whether the last request of another (lost) connection was applied. Its result when it
     * was (an update count of -1: not known); an SQLException with vendor code
     * {@link Protocol#REQUEST_NOT_APPLIED} when it was not, any other when the controller cannot tell.
     */
    Applied outcome(ProtocolConnection lost) throws SQLException {
        if (lost.clientSession() == null) {
            throw SqlExceptions.create("the lost connection had no id", SqlExceptions.CONNECTION_BROKEN);
        }
        MessageWriter w = new MessageWriter(MessageType.OUTCOME, 64).writeString(lost.clientSession())
                .writeLong(lost.lastRequestNumber()).writeLong(lost.millisSinceLastRequest());
        return call(w, r -> switch (r.type()) {
            case MessageType.BATCH_RESULT -> new Applied(null, BatchResult.readBody(r));
            default -> {
                expect(r, MessageType.UPDATE_COUNT);
                yield new Applied(UpdateCount.readBody(r), null);
            }
        });
    }

    boolean isBroken() {
        return broken;
    }

    /** Whether the connection broke after its last request was sent whole (see {@link #brokenAfterSending}). */
    boolean brokenAfterSending() {
        return brokenAfterSending;
    }

    boolean isUsable() {
        return !broken && !closed;
    }

    /** Sends one request and reads its one reply; ERROR becomes the matching SQLException. */
    private synchronized <T> T call(MessageWriter request, ReplyReader<T> reader) throws SQLException {
        if (closed) {
            throw SqlExceptions.connectionClosed();
        }
        if (broken) {
            throw SqlExceptions.create("connection to the controller is broken", SqlExceptions.CONNECTION_BROKEN);
        }
        if (request.payloadLength() > Protocol.DEFAULT_MAX_FRAME) {
            // Refused before sending, so the connection stays usable.
            throw SqlExceptions.create("request of " + request.payloadLength() + " bytes exceeds the protocol limit of "
                    + Protocol.DEFAULT_MAX_FRAME + " bytes", SqlExceptions.LIMIT_EXCEEDED);
        }
        ErrorReply error;
        T result;
        boolean sent = false;
        try {
            requestsSent++;
            lastRequestNanos = System.nanoTime();
            FrameIO.write(out, request);
            sent = true;
            byte[] frame = FrameIO.read(in, Protocol.DEFAULT_MAX_FRAME);
            if (frame == null) {
                throw new EOFException("the controller closed the connection");
            }
            MessageReader r = new MessageReader(frame);
            if (r.type() == MessageType.ERROR) {
                error = ErrorReply.readBody(r);
                result = null;
            } else {
                error = null;
                result = reader.read(r);
            }
            r.end();
        } catch (IOException e) {
            markBroken();
            brokenAfterSending = sent;
            throw SqlExceptions.broken(e);
        }
        if (error != null) {
            throw SqlExceptions.fromReply(error);
        }
        return result;
    }

    private static void expect(MessageReader r, byte type) throws ProtocolException {
        if (r.type() != type) {
            throw new ProtocolException("expected reply 0x" + Integer.toHexString(type & 0xFF)
                    + " but got 0x" + Integer.toHexString(r.type() & 0xFF));
        }
    }

    private void callForOk(MessageWriter request) throws SQLException {
        call(request, r -> {
            expect(r, MessageType.OK);
            return null;
        });
    }

    ExecuteReply execute(Execute request) throws SQLException {
        if (hello.version() < Protocol.UNTYPED_VERSION) {
            request = new Execute(request.mode(), request.sql(), Untyped.asStrings(request.params()), request.keys(),
                    request.keyColumns(), request.maxRows(), request.fetchSize(), request.queryTimeoutSeconds(),
                    request.scrollable());
        }
        return call(request.toMessage(), r -> switch (r.type()) {
            case MessageType.RESULT_SET -> new ExecuteReply(ResultSetReply.readBody(r), null);
            case MessageType.UPDATE_COUNT -> new ExecuteReply(null, UpdateCount.readBody(r));
            default -> {
                expect(r, MessageType.RESULT_SET);
                yield null;
            }
        });
    }

    BatchResult batch(Batch request) throws SQLException {
        if (hello.version() < Protocol.UNTYPED_VERSION) {
            request = new Batch(request.sql(), request.statements(),
                    request.parameterSets().stream().map(Untyped::asStrings).toList(), request.queryTimeoutSeconds(),
                    request.keys(), request.keyColumns());
        }
        return call(request.toMessage(), r -> {
            expect(r, MessageType.BATCH_RESULT);
            return BatchResult.readBody(r);
        });
    }

    /** FETCH: the next batch of an open cursor, read with the column count the client knows. */
    RowBatch fetch(int cursorId, int fetchSize, int columnCount) throws SQLException {
        MessageWriter w = new MessageWriter(MessageType.FETCH, 16).writeInt(cursorId).writeInt(fetchSize);
        return call(w, r -> {
            expect(r, MessageType.ROWS);
            return RowBatch.read(r, columnCount);
        });
    }

    void closeCursor(int cursorId) throws SQLException {
        callForOk(new MessageWriter(MessageType.CLOSE_CURSOR, 16).writeInt(cursorId));
    }

    ResultSetReply metadata(MetadataRequest request) throws SQLException {
        return call(request.toMessage(), r -> {
            expect(r, MessageType.RESULT_SET);
            return ResultSetReply.readBody(r);
        });
    }

    void setAutoCommit(boolean autoCommit) throws SQLException {
        callForOk(new MessageWriter(MessageType.SET_AUTO_COMMIT, 16).writeBoolean(autoCommit));
    }

    void commit() throws SQLException {
        callForOk(new MessageWriter(MessageType.COMMIT, 16));
    }

    void rollback() throws SQLException {
        callForOk(new MessageWriter(MessageType.ROLLBACK, 16));
    }

    void setIsolation(int level) throws SQLException {
        callForOk(new MessageWriter(MessageType.SET_ISOLATION, 16).writeInt(level));
    }

    void setReadOnly(boolean readOnly) throws SQLException {
        callForOk(new MessageWriter(MessageType.SET_READ_ONLY, 16).writeBoolean(readOnly));
    }

    /** PING with a temporary read timeout; a timeout breaks the connection (its reply would arrive late). */
    void ping(int timeoutMillis) throws SQLException {
        synchronized (this) {
            int saved = getSocketTimeout();
            try {
                setSocketTimeout(timeoutMillis);
                callForOk(new MessageWriter(MessageType.PING, 16));
            } finally {
                if (!broken && !closed) {
                    setSocketTimeout(saved);
                }
            }
        }
    }

    int getSocketTimeout() throws SQLException {
        try {
            return socket.getSoTimeout();
        } catch (IOException e) {
            markBroken();
            throw SqlExceptions.broken(e);
        }
    }

    void setSocketTimeout(int millis) throws SQLException {
        try {
            socket.setSoTimeout(millis);
        } catch (IOException e) {
            markBroken();
            throw SqlExceptions.broken(e);
        }
    }

    /** Polite close: CLOSE (the server ends the session and rolls back an open transaction), then the socket. */
    void close() {
        if (closed) {
            return;
        }
        try {
            if (!broken) {
                callForOk(new MessageWriter(MessageType.CLOSE, 16));
            }
        } catch (SQLException e) {
            // Closing anyway; an unreachable controller drops the session on its own.
        } finally {
            closed = true;
            closeQuietly(socket);
        }
    }

    /** Immediate close without the CLOSE exchange; safe from any thread, also while a call is blocked. */
    void abort() {
        closed = true;
        closeQuietly(socket);
    }

    private void markBroken() {
        broken = true;
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }
}
