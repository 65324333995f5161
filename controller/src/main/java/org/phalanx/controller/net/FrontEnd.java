package org.phalanx.controller.net;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.KeyStores;
import org.phalanx.controller.config.ListenConfig;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.engine.SqlState;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.FrameIO;

import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client port: accepts connections and serves each on a pooled thread with blocking I/O
 * ({@link ClientConnection}). A request blocks on backends for as long as it runs, and a thread per
 * busy connection keeps that simple, fast (no hand-over between threads per request) and visible in
 * thread dumps; a connection idle for a while waits in {@link IdleConnections} without a thread.
 * A reply its client does not read within the write timeout ends that connection.
 */
public final class FrontEnd {
    private static final Logger LOG = LogManager.getLogger(FrontEnd.class);
    private static final int BACKLOG = 128;
    /** Refusals past the connection cap come in floods: a line every 10 s at most. */
    private static final WarningRate OVER_CAP = new WarningRate(Duration.ofSeconds(10));

    private final ListenConfig listen;
    private final Map<String, VirtualDatabase> virtualDatabases;
    private final Set<ClientConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong connectionIds = new AtomicLong();
    private final Timeouts timeouts;
    /** The threads connections are served on: as many as are busy, each kept 10 s for the next. */
    private final ExecutorService threads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, ClientConnection.POOLED_THREAD_NAME);
                // the controller's lifecycle, not its client threads, decides when the JVM ends
                t.setDaemon(true);
                return t;
            });
    private IdleConnections idle;
    /** Looks for replies not read within the write timeout, once a second. */
    private ScheduledExecutorService writeWatch;
    private final LoginThrottle throttle = new LoginThrottle();
    private final UserConnections users;
    private final ClientSessions clientSessions = new ClientSessions();
    /** Answers the connections past the cap, one at a time, off the accepting thread. */
    private final java.util.concurrent.ExecutorService refusals = new java.util.concurrent.ThreadPoolExecutor(1, 1, 0,
            java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.ArrayBlockingQueue<>(100), r -> {
                Thread t = new Thread(r, "phalanx-refusals");
                t.setDaemon(true);
                return t;
            });
    private ServerSocketChannel server;
    private SSLSocketFactory tls;
    private Thread acceptor;
    private volatile boolean stopping;

    /**
     * How long a client may be silent where it should not be.
     *
     * @param hello     a new connection before its HELLO
     * @param midFrame  a frame started before it has arrived whole
     * @param parkAfter between requests, before the connection waits without a thread
     */
    record Timeouts(Duration hello, Duration midFrame, Duration parkAfter) {
        static final Timeouts DEFAULT = new Timeouts(ClientConnection.HELLO_TIMEOUT, ClientConnection.MID_FRAME_TIMEOUT,
                ClientConnection.PARK_AFTER);
    }

    /** @param virtualDatabases by name, read live (a thread-safe map: the controller loads and unloads while serving) */
    public FrontEnd(ListenConfig listen, Map<String, VirtualDatabase> virtualDatabases) {
        this(listen, virtualDatabases, Timeouts.DEFAULT);
    }

    /** @param timeouts tests shorten them */
    FrontEnd(ListenConfig listen, Map<String, VirtualDatabase> virtualDatabases, Timeouts timeouts) {
        this.timeouts = timeouts;
        this.listen = listen;
        this.users = new UserConnections(listen.maxConnectionsPerUser());
        this.virtualDatabases = virtualDatabases; // read live: the controller loads and unloads virtual databases
    }

    public synchronized void start() throws IOException {
        if (server != null) {
            throw new IllegalStateException("already started");
        }
        tls = listen.tls() == null ? null
                : KeyStores.serverContext(listen.tls(), listen.clientTrust(), "client port").getSocketFactory();
        ServerSocketChannel s = ServerSocketChannel.open();
        try {
            // a restarted controller must be able to bind while old connections linger in TIME_WAIT
            s.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            s.bind(new InetSocketAddress(InetAddress.getByName(listen.address()), listen.port()), BACKLOG);
        } catch (IOException e) {
            s.close();
            throw new IOException("cannot listen on " + listen.address() + ":" + listen.port() + ": " + e.getMessage(), e);
        }
        server = s;
        idle = new IdleConnections(threads);
        writeWatch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "phalanx-write-timeout");
            t.setDaemon(true);
            return t;
        });
        writeWatch.scheduleWithFixedDelay(() -> {
            long now = System.nanoTime();
            connections.forEach(c -> c.closeIfStuckWriting(now, listen.writeTimeout()));
        }, 1, 1, TimeUnit.SECONDS);
        acceptor = new Thread(this::acceptLoop, "phalanx-acceptor-" + port());
        acceptor.start();
    }

    /** The bound port (the real one when the configuration said 0). */
    public int port() {
        return server.socket().getLocalPort();
    }

    /** Connections waiting for a request without a thread. */
    int idleConnections() {
        return idle.size();
    }

    public int openConnections() {
        return connections.size();
    }

    /**
     * A connection past the cap gets an ERROR for its HELLO, as a refused login does: its HELLO is
     * read first (at most {@link ClientConnection#MAX_HELLO_FRAME}, half a second), since closing
     * with unread bytes would reset the connection and lose the answer.
     */
    private static void refuse(Socket socket, String why) {
        long leftOut = OVER_CAP.admit();
        if (leftOut >= 0) {
            LOG.warn("Refused connection from {}: {}{}", socket.getRemoteSocketAddress(), why, WarningRate.leftOut(leftOut));
        }
        try {
            socket.setSoTimeout(500);
            FrameIO.read(new java.io.DataInputStream(socket.getInputStream()), ClientConnection.MAX_HELLO_FRAME);
            FrameIO.write(socket.getOutputStream(), new ErrorReply(SqlState.TOO_MANY_CONNECTIONS.code(), 0, why).toMessage());
        } catch (IOException e) {
            // it left, or said nothing in time
        } finally {
            closeQuietly(socket);
        }
    }

    /** Refuses new clients from now on; those connected keep being served until {@link #stop}. */
    public void stopAccepting() {
        ServerSocketChannel s;
        synchronized (this) {
            s = server;
        }
        if (s != null) {
            closeQuietly(s);
        }
    }

    private void acceptLoop() {
        while (!stopping) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (IOException e) {
                if (stopping || !server.isOpen()) {
                    return;
                }
                // e.g. out of file descriptors: keep serving the connections we have, try again shortly
                LOG.warn("Accepting a connection failed: {}", e.toString());
                pause();
                continue;
            }
            admit(channel);
        }
    }

    private void admit(SocketChannel channel) {
        Socket socket;
        try {
            // one small request, one small reply: Nagle's algorithm would only add latency
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            socket = tls == null ? channel.socket() : serverSide(tls.createSocket(channel.socket(),
                    channel.socket().getInetAddress().getHostAddress(), channel.socket().getPort(), true),
                    listen.clientTrust() != null);
        } catch (IOException e) {
            LOG.info("Connection from {} lost at once: {}", channel.socket().getRemoteSocketAddress(), e.getMessage());
            closeQuietly(channel);
            return;
        }
        if (connections.size() >= listen.maxConnections()) {
            String why = "the controller serves " + listen.maxConnections() + " connections already (maxConnections)";
            try {
                refusals.execute(() -> refuse(socket, why));
            } catch (java.util.concurrent.RejectedExecutionException flood) {
                closeQuietly(socket); // refusals are queued already: this one is not even answered
            }
            return;
        }
        long id = connectionIds.incrementAndGet();
        ClientConnection connection = new ClientConnection(channel, socket, id, virtualDatabases, listen.maxFrameBytes(),
                timeouts, throttle, users, clientSessions, idle, connections::remove);
        connections.add(connection);
        threads.execute(connection);
    }

    /**
     * TLS over an accepted connection, as its server: the handshake happens on the connection's
     * first read, and fails for a client without a trusted certificate when {@code clientCertificates}.
     */
    private static Socket serverSide(Socket layered, boolean clientCertificates) {
        SSLSocket tls = (SSLSocket) layered;
        tls.setUseClientMode(false);
        tls.setNeedClientAuth(clientCertificates);
        return tls;
    }

    /**
     * Stops accepting, lets requests in flight finish (up to {@code grace}), then closes every
     * client connection.
     */
    public void stop(Duration grace) {
        synchronized (this) {
            if (server == null || stopping) {
                return;
            }
            stopping = true;
        }
        closeQuietly(server);
        try {
            acceptor.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        refusals.shutdownNow();

        writeWatch.shutdownNow();

        // the acceptor has ended, so no connection is added after this snapshot
        List<ClientConnection> open = List.copyOf(connections);
        if (!open.isEmpty()) {
            LOG.info("Closing {} client connection(s), letting requests in flight finish (up to {} s)",
                    open.size(), grace.toSeconds());
        }
        open.forEach(ClientConnection::requestStop);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ClientConnection c : open) {
            awaitEnd(c, deadline - System.nanoTime());
        }
        for (ClientConnection c : open) {
            if (!c.ended.isDone()) {
                LOG.warn("Closing connection from {} in the middle of a request", c.remote());
                c.forceClose();
                awaitEnd(c, Duration.ofSeconds(1).toNanos());
            }
        }
        idle.close();
        threads.shutdown();
    }

    private static void awaitEnd(ClientConnection c, long nanos) {
        try {
            c.ended.get(Math.max(0, nanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // still in its request: the caller decides
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing is all we wanted
        }
    }
}
