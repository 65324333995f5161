package org.phalanx.controller.net;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.vdb.AnswerTimes;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.requestmanager.api.RequestId;
import org.phalanx.requestmanager.api.RequestOutcome;
import org.phalanx.engine.SqlState;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.FrameIO;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.HelloOk;
import org.phalanx.protocol.MessageReader;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.Protocol;
import org.phalanx.protocol.ProtocolException;
import org.phalanx.requestmanager.api.Session;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One client connection: the HELLO handshake (authentication before anything else), then one reply
 * per request, in order, with blocking I/O on a pooled thread. A connection whose client has been
 * quiet for {@link #PARK_AFTER} lets go of its thread and waits in {@link IdleConnections}, which
 * runs it again when the client speaks. Whatever ends the connection — the client leaving, a
 * protocol violation, a reply it does not read, a controller shutdown — closes its open cursors and
 * its session, which rolls back an unfinished transaction.
 */
final class ClientConnection implements Runnable {
    private static final Logger LOG = LogManager.getLogger(ClientConnection.class);
    /** How long OUTCOME waits for the connection it asks about to end here. */
    private static final Duration OUTCOME_WAIT = Duration.ofSeconds(10);
    /** The version the client's HELLO asked for (one this controller speaks), answered in HELLO_OK. */
    private short protocolVersion = Protocol.VERSION;
    /** A connection refused before any session exists (bad protocol version, unknown virtual database). */
    private static final String REJECTED = SqlState.SQLSERVER_REJECTED_ESTABLISHMENT_OF_SQLCONNECTION.code();

    /** A client that connects must say HELLO promptly; idle sockets must not pile up. */
    static final Duration HELLO_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How long an authenticated client may take to send the rest of a frame it has started: idle
     * between requests as long as it likes, but a truncated frame must not hold the connection for ever.
     */
    static final Duration MID_FRAME_TIMEOUT = Duration.ofSeconds(30);
    /** Limit before authentication: a HELLO is a few hundred bytes, and a stranger must not make us allocate more. */
    static final int MAX_HELLO_FRAME = Protocol.MAX_HELLO_FRAME;
    /**
     * How long a connection keeps its thread waiting for the next request before it waits in the
     * idle selector instead: long enough that a busy client never pays the hand-over, short enough
     * that a pool of idle connections costs no threads.
     */
    static final Duration PARK_AFTER = Duration.ofSeconds(2);
    /** Refusals past a user's connection cap come in floods (a pool growing): a line every 10 s at most. */
    private static final WarningRate OVER_USER_CAP = new WarningRate(Duration.ofSeconds(10));
    /** The name of a pooled thread between connections (it takes the connection's name while serving one). */
    static final String POOLED_THREAD_NAME = "phalanx-client";

    private final SocketChannel channel;
    /** The channel's socket, or TLS over it: all reading and writing goes through this. */
    private final Socket socket;
    private final IdleConnections idle;
    private final Duration parkAfter;
    private final long id;
    private final String remote;
    private final Map<String, VirtualDatabase> virtualDatabases;
    private final int maxFrameBytes;
    private final Duration helloTimeout;
    private final Consumer<ClientConnection> onEnd;
    private final LoginThrottle throttle;
    private final UserConnections users;
    private final ClientSessions clientSessions;
    /** The driver's id for this connection, registered in {@link #clientSessions}; null if it sent none or a taken one. */
    private String clientSession;
    private ClientSessions.Open registered;
    /** Requests received after HELLO: the number of the one being served (the driver counts the same). */
    private long requests;
    /** The user this connection counts for in {@link #users}, once admitted. */
    private String admittedUser;
    private final Duration midFrameTimeout;
    private final OpenCursors cursors = new OpenCursors();
    private Session session;
    /** The virtual database the session is on, once open. */
    private VirtualDatabase vdb;
    /** Deregisters the connection from its virtual database's session loss (a distributed one's primary stepping down). */
    private AutoCloseable sessionsLost;
    /** Where this connection's answer times go: its virtual database's, once logged in. */
    private AnswerTimes answerTimes;

    /** The plain channel's streams (null over TLS, which reads and writes through the socket's). */
    private volatile ChannelStreams streams;
    private DataInputStream in;
    private OutputStream out;
    /** Set once the session is open; a connection run again after waiting idle goes straight to its requests. */
    private RequestDispatcher dispatcher;
    /** Whether the frame being read has started to arrive (a timeout then means a truncated request, not a quiet client). */
    private boolean frameStarted;
    private final FrameIO.FrameStart onFrameStart;
    /** {@link System#nanoTime} when the reply being written started, or 0: the write timeout watches it. */
    private volatile long writingSince;
    /** Completed once the connection has ended and released its session. */
    final CompletableFuture<Void> ended = new CompletableFuture<>();

    private final Object stateLock = new Object();
    /** A request is being served: a stop waits for its reply instead of cutting it off. */
    private boolean busy;
    private boolean stopping;

    /**
     * @param channel the accepted channel, in blocking mode
     * @param socket  its socket, or TLS layered over it
     */
    ClientConnection(SocketChannel channel, Socket socket, long id, Map<String, VirtualDatabase> virtualDatabases,
                     int maxFrameBytes, FrontEnd.Timeouts timeouts, LoginThrottle throttle, UserConnections users,
                     ClientSessions clientSessions, IdleConnections idle, Consumer<ClientConnection> onEnd) {
        this.channel = channel;
        this.idle = idle;
        this.parkAfter = timeouts.parkAfter();
        this.throttle = throttle;
        this.clientSessions = clientSessions;
        this.users = users;
        this.midFrameTimeout = timeouts.midFrame();
        this.socket = socket;
        this.id = id;
        this.remote = String.valueOf(socket.getRemoteSocketAddress());
        this.virtualDatabases = virtualDatabases;
        this.maxFrameBytes = maxFrameBytes;
        this.helloTimeout = timeouts.hello();
        this.onEnd = onEnd;
        this.onFrameStart = () -> {
            frameStarted = true;
            readTimeout(midFrameTimeout);
        };
    }

    SocketChannel channel() {
        return channel;
    }

    /** Serves the connection until it ends or waits idle; run first on accepting it, then each time its client speaks again. */
    @Override
    public void run() {
        Thread.currentThread().setName("phalanx-client-" + id);
        boolean parked = false;
        try {
            if (dispatcher == null) {
                if (socket == channel.socket()) {
                    streams = new ChannelStreams(channel);
                    in = new DataInputStream(new BufferedInputStream(streams.input()));
                    out = new BufferedOutputStream(streams.output());
                } else {
                    in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
                    out = new BufferedOutputStream(socket.getOutputStream());
                }
                if (!handshake()) {
                    return;
                }
                dispatcher = new RequestDispatcher(session, cursors, maxFrameBytes, this::requestOutcome, protocolVersion);
            } else if (streams == null) {
                channel.configureBlocking(true); // back from waiting idle
            }
            parked = serve();
        } catch (SocketTimeoutException e) {
            LOG.warn("Closing connection from {}: no HELLO within {} ms", remote, helloTimeout.toMillis());
        } catch (ProtocolException e) {
            LOG.warn("Closing connection from {}: {}", remote, e.getMessage());
        } catch (IOException e) {
            if (stopRequested()) {
                LOG.debug("Connection from {} closed by the controller shutdown", remote);
            } else {
                LOG.info("Connection from {} lost: {}", remote, e.getMessage());
            }
        } catch (RuntimeException | Error e) {
            LOG.error("Connection from {} failed", remote, e);
        } finally {
            if (!parked) {
                release();
                onEnd.accept(this);
                ended.complete(null);
            }
            Thread.currentThread().setName(POOLED_THREAD_NAME);
        }
    }

    /** @return whether a session was opened; if not, the reason has been logged and answered where due */
    private boolean handshake() throws IOException {
        readTimeout(helloTimeout);
        byte[] frame = FrameIO.read(in, MAX_HELLO_FRAME);
        if (frame == null) {
            LOG.debug("Connection from {} closed before HELLO", remote);
            return false;
        }
        MessageReader reader = new MessageReader(frame);
        if (reader.type() != MessageType.HELLO) {
            throw new ProtocolException("first message is of type 0x" + Integer.toHexString(reader.type() & 0xFF)
                    + ", not HELLO");
        }
        Hello hello = Hello.readBody(reader);
        reader.end();
        if (hello.version() < Protocol.OLDEST_VERSION || hello.version() > Protocol.VERSION) {
            LOG.warn("Closing connection from {}: protocol version {} not supported", remote, hello.version());
            send(new ErrorReply(REJECTED, 0, "protocol version " + hello.version()
                    + " is not supported (this controller speaks version " + Protocol.VERSION + " and the older "
                    + Protocol.OLDEST_VERSION + ")"));
            return false;
        }
        protocolVersion = hello.version();
        VirtualDatabase vdb = hello.vdb() == null ? null : virtualDatabases.get(hello.vdb());
        if (vdb == null) {
            LOG.warn("Refused connection from {}: unknown virtual database '{}'", remote, hello.vdb());
            send(new ErrorReply(REJECTED, 0, "unknown virtual database '" + hello.vdb() + "'"));
            return false;
        }
        String address = socket.getInetAddress().getHostAddress();
        String user = hello.vdb() + "/" + hello.user();
        Duration wait = throttle.wait(address, user);
        if (!wait.isZero()) {
            send(new ErrorReply(SqlState.INVALID_AUTHORIZATION_SPECIFICATION.code(), 0, "too many failed logins from "
                    + address + " or for this user: try again in " + Math.max(1, wait.toMillis()) + " ms"));
            return false;
        }
        try {
            boolean readOnly = "true".equalsIgnoreCase(hello.properties().get("readOnly")); // the URL's readOnly=true
            // the URL's followerReads=current: a follower's reads wait until it holds what the group committed
            boolean currentReads = Protocol.FOLLOWER_READS_CURRENT.equalsIgnoreCase(
                    hello.properties().get(Protocol.FOLLOWER_READS));
            session = vdb.login(hello.user(), hello.password(), readOnly, currentReads);
            this.vdb = vdb;
            sessionsLost = vdb.onSessionsLost(this::forceClose); // its driver fails over to the new primary
            answerTimes = vdb.answerTimes();
            throttle.succeeded(address, user);
            if (!users.admit(user)) {
                throw new SQLException("user " + hello.user() + " of virtual database " + vdb.name() + " has "
                        + users.max() + " connections open already (maxConnectionsPerUser)",
                        SqlState.TOO_MANY_CONNECTIONS.code());
            }
            admittedUser = user;
            registerClientSession(hello.properties().get(Protocol.CLIENT_SESSION));
            session.clientTimeZone(hello.properties().get(Protocol.TIME_ZONE));
        } catch (SQLException e) {
            if (SqlState.INVALID_AUTHORIZATION_SPECIFICATION.is(e.getSQLState())) {
                if (throttle.failed(address, user)) { // the first failure, then each time their number doubles
                    LOG.warn("Authentication failed for {} '{}' on virtual database '{}' from {} (further failures"
                            + " slow down logins from there and for that user, and are logged less and less often)",
                            vdb.hasUser(hello.user()) ? "user" : "unknown user", hello.user(), vdb.name(), remote);
                }
            } else if (!vdb.serves()) {
                // a member of the virtual database's group that is not its primary: the driver tries the next
                LOG.debug("Session for '{}' on virtual database '{}' from {} refused: {}",
                        hello.user(), vdb.name(), remote, e.getMessage());
            } else if (SqlState.TOO_MANY_CONNECTIONS.is(e.getSQLState())) {
                long leftOut = OVER_USER_CAP.admit();
                if (leftOut >= 0) {
                    LOG.warn("Session for '{}' on virtual database '{}' from {} refused: {}{}", hello.user(), vdb.name(),
                            remote, e.getMessage(), WarningRate.leftOut(leftOut));
                }
            } else {
                LOG.warn("Session for '{}' on virtual database '{}' from {} refused: {}",
                        hello.user(), vdb.name(), remote, e.getMessage());
            }
            send(ErrorReplies.of(e));
            return false;
        }
        var product = vdb.product();
        send(new HelloOk(protocolVersion, product.name(), product.version(), id, vdb.defaultIsolation()).toMessage());
        LOG.debug("Session {} opened for '{}' on virtual database '{}' from {}", id, hello.user(), vdb.name(), remote);
        return true;
    }

    /**
     * On a distributed virtual database (only its group remembers requests), a valid id (short, no
     * ':') nobody else holds becomes this connection's; else its requests carry none.
     */
    private void registerClientSession(String id) {
        if (vdb.group().isEmpty() || id == null || id.isEmpty() || id.length() > 64 || id.indexOf(':') >= 0) {
            return;
        }
        ClientSessions.Open me = new ClientSessions.Open(admittedUser, this::forceClose, new CompletableFuture<>());
        if (clientSessions.opened(id, me)) {
            clientSession = id;
            registered = me;
        }
    }

    /**
     * OUTCOME: whether request {@code number} of the (earlier) connection {@code id} was applied.
     * That connection is ended first if it is still open here, so that what it logged is settled.
     */
    private RequestOutcome requestOutcome(String id, long number, long ageMillis) {
        if (id.equals(clientSession)) {
            return new RequestOutcome.Unknown("a connection cannot ask about its own requests");
        }
        if (!clientSessions.endAndWait(id, admittedUser, OUTCOME_WAIT)) {
            return new RequestOutcome.Unknown("that connection is another user's, or still serving a request here after "
                    + OUTCOME_WAIT.toSeconds() + " s");
        }
        RequestOutcome outcome = vdb.requestOutcome(id, number, ageMillis);
        LOG.info("Virtual database {}: a driver that lost its controller asked from {} about request {} of its"
                + " connection {}: {}", vdb.name(), remote, number, id, outcome);
        return outcome;
    }

    private void send(ErrorReply reason) throws IOException {
        send(reason.toMessage());
    }

    /** Writes a reply; should the client not read it within the write timeout, {@link #closeIfStuckWriting} ends the connection. */
    private void send(MessageWriter reply) throws IOException {
        writingSince = System.nanoTime() | 1; // never 0, which means "not writing"
        try {
            FrameIO.write(out, reply);
        } finally {
            writingSince = 0;
        }
    }

    /**
     * Ends the connection if a reply has been waiting for its client to read it for longer than
     * {@code timeout}: a client that does not read is disconnected, its reply and cursor let go,
     * rather than buffered for ever.
     */
    void closeIfStuckWriting(long now, Duration timeout) {
        long since = writingSince;
        if (since != 0 && now - since > timeout.toNanos()) {
            LOG.warn("Closing connection from {}: it has not read a reply for {} ms (listen writeTimeout)", remote,
                    timeout.toMillis());
            forceClose();
        }
    }

    /**
     * Answers requests until the connection ends (false) or its client has been quiet for
     * {@link #parkAfter} and it waits in {@link #idle} without a thread (true). Authenticated
     * clients may sit idle as long as they like (connection pools do), but a request started must
     * arrive whole within the mid-frame timeout.
     */
    private boolean serve() throws IOException {
        while (true) {
            byte[] frame;
            frameStarted = false;
            readTimeout(parkAfter);
            try {
                frame = FrameIO.read(in, maxFrameBytes, onFrameStart);
            } catch (SocketTimeoutException e) {
                if (frameStarted) {
                    throw new ProtocolException("a request started but did not arrive whole within "
                            + midFrameTimeout.toMillis() + " ms");
                }
                // nothing read, so nothing is buffered above the channel: the selector sees what comes next
                if (streams != null) {
                    streams.release();
                } else {
                    channel.configureBlocking(false);
                }
                idle.park(this);
                return true;
            }
            if (frame == null) {
                LOG.debug("Connection from {} closed by the client", remote);
                return false;
            }
            if (!startRequest()) {
                return false;
            }
            long start = System.nanoTime();
            MessageReader request = new MessageReader(frame);
            requests++;
            if (clientSession != null) {
                session.requestId(new RequestId(clientSession, requests));
            }
            try {
                send(answer(dispatcher, request));
                answerTimes.record(System.nanoTime() - start);
            } finally {
                endRequest();
            }
            if (request.type() == MessageType.CLOSE || stopRequested()) {
                return false;
            }
        }
    }

    private void readTimeout(Duration timeout) throws java.net.SocketException {
        if (streams != null) {
            streams.readTimeout((int) timeout.toMillis());
        } else {
            socket.setSoTimeout((int) timeout.toMillis());
        }
    }

    private MessageWriter answer(RequestDispatcher dispatcher, MessageReader request) throws ProtocolException {
        try {
            return dispatcher.dispatch(request);
        } catch (SQLException e) {
            return ErrorReplies.of(e).toMessage();
        } catch (RuntimeException e) {
            LOG.error("Internal error serving message type 0x{} from {}", Integer.toHexString(request.type() & 0xFF),
                    remote, e);
            return ErrorReplies.internal(e).toMessage();
        }
    }

    private boolean startRequest() {
        synchronized (stateLock) {
            if (stopping) {
                return false;
            }
            busy = true;
            return true;
        }
    }

    private void endRequest() {
        synchronized (stateLock) {
            busy = false;
        }
    }

    private boolean stopRequested() {
        synchronized (stateLock) {
            return stopping;
        }
    }

    /**
     * Asks the connection to end: at once if it waits for a request, else after the reply to
     * the request it is serving.
     */
    void requestStop() {
        synchronized (stateLock) {
            stopping = true;
            if (!busy) {
                closeSocket();
            }
        }
    }

    /** Ends the connection now, even in the middle of a request. */
    void forceClose() {
        synchronized (stateLock) {
            stopping = true;
        }
        closeSocket();
    }

    String remote() {
        return remote;
    }

    private void release() {
        cursors.closeAll();
        if (sessionsLost != null) {
            try {
                sessionsLost.close();
            } catch (Exception e) {
                // deregistering cannot fail
            }
            sessionsLost = null;
        }
        if (admittedUser != null) {
            users.left(admittedUser);
            admittedUser = null;
        }
        if (session != null) {
            try {
                session.close();
            } catch (RuntimeException e) {
                LOG.warn("Closing session {} of {} failed: {}", id, remote, e.toString());
            }
            session = null;
        }
        if (registered != null) {
            clientSessions.ended(clientSession, registered); // its session closed: what it logged is settled
            registered = null;
        }
        closeSocket();
        if (streams != null) {
            streams.release(); // deregisters the closed channel, which lets its socket close
        }
    }

    /** Closes the channel under any TLS: that unblocks a thread writing to it at once, and a parked connection is looked at again. */
    private void closeSocket() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing is all we wanted
        }
        ChannelStreams s = streams;
        if (s != null) {
            s.wakeup(); // a wait for the client to read or write sees the channel closed
        }
        idle.wake();
    }
}
