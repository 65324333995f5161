package org.phalanx.controller.net;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.ListenConfig;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.engine.SqlState;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.FrameIO;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client port: accepts connections and gives each its own platform thread
 * ({@link ClientConnection}). A request blocks on backends for as long as it runs, and a thread
 * per connection keeps that simple and visible in thread dumps.
 */
public final class FrontEnd {
    private static final Logger LOG = LogManager.getLogger(FrontEnd.class);
    private static final int BACKLOG = 128;

    private final ListenConfig listen;
    private final Map<String, VirtualDatabase> virtualDatabases;
    private final Map<ClientConnection, Thread> connections = new ConcurrentHashMap<>();
    private final AtomicLong connectionIds = new AtomicLong();
    private final Duration helloTimeout;
    private final Duration midFrameTimeout;
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
    private ServerSocket server;
    private Thread acceptor;
    private volatile boolean stopping;

    /** @param virtualDatabases by name, read live (a thread-safe map: the controller loads and unloads while serving) */
    public FrontEnd(ListenConfig listen, Map<String, VirtualDatabase> virtualDatabases) {
        this(listen, virtualDatabases, ClientConnection.HELLO_TIMEOUT, ClientConnection.MID_FRAME_TIMEOUT);
    }

    /**
     * @param helloTimeout    how long a new connection may take to send HELLO (tests shorten it)
     * @param midFrameTimeout how long a client may take to finish a frame it has started (tests shorten it)
     */
    FrontEnd(ListenConfig listen, Map<String, VirtualDatabase> virtualDatabases, Duration helloTimeout,
             Duration midFrameTimeout) {
        this.midFrameTimeout = midFrameTimeout;
        this.listen = listen;
        this.users = new UserConnections(listen.maxConnectionsPerUser());
        this.virtualDatabases = virtualDatabases; // read live: the controller loads and unloads virtual databases
        this.helloTimeout = helloTimeout;
    }

    public synchronized void start() throws IOException {
        if (server != null) {
            throw new IllegalStateException("already started");
        }
        ServerSocket s = listen.tls() == null ? new ServerSocket()
                : org.phalanx.controller.config.KeyStores.serverSockets(listen.tls(), "client port").createServerSocket();
        try {
            // a restarted controller must be able to bind while old connections linger in TIME_WAIT
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(listen.address()), listen.port()), BACKLOG);
        } catch (IOException e) {
            s.close();
            throw new IOException("cannot listen on " + listen.address() + ":" + listen.port() + ": " + e.getMessage(), e);
        }
        server = s;
        acceptor = new Thread(this::acceptLoop, "phalanx-acceptor-" + s.getLocalPort());
        acceptor.start();
    }

    /** The bound port (the real one when the configuration said 0). */
    public int port() {
        return server.getLocalPort();
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
        LOG.warn("Refused connection from {}: {}", socket.getRemoteSocketAddress(), why);
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
        ServerSocket s;
        synchronized (this) {
            s = server;
        }
        if (s != null) {
            closeQuietly(s);
        }
    }

    private void acceptLoop() {
        while (!stopping) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (stopping || server.isClosed()) {
                    return;
                }
                // e.g. out of file descriptors: keep serving the connections we have, try again shortly
                LOG.warn("Accepting a connection failed: {}", e.toString());
                pause();
                continue;
            }
            admit(socket);
        }
    }

    private void admit(Socket socket) {
        try {
            // one small request, one small reply: Nagle's algorithm would only add latency
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
        } catch (IOException e) {
            LOG.info("Connection from {} lost at once: {}", socket.getRemoteSocketAddress(), e.getMessage());
            closeQuietly(socket);
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
        ClientConnection connection = new ClientConnection(socket, id, virtualDatabases, listen.maxFrameBytes(),
                helloTimeout, midFrameTimeout, throttle, users, clientSessions, connections::remove);
        Thread thread = new Thread(connection, "phalanx-client-" + id);
        // the controller's lifecycle, not its client threads, decides when the JVM ends
        thread.setDaemon(true);
        connections.put(connection, thread);
        thread.start();
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
        join(acceptor, Duration.ofSeconds(5).toNanos());
        refusals.shutdownNow();

        // the acceptor has ended, so no connection is added after this snapshot
        List<Map.Entry<ClientConnection, Thread>> open = List.copyOf(connections.entrySet());
        if (!open.isEmpty()) {
            LOG.info("Closing {} client connection(s), letting requests in flight finish (up to {} s)",
                    open.size(), grace.toSeconds());
        }
        open.forEach(e -> e.getKey().requestStop());
        long deadline = System.nanoTime() + grace.toNanos();
        for (Map.Entry<ClientConnection, Thread> e : open) {
            join(e.getValue(), deadline - System.nanoTime());
        }
        for (Map.Entry<ClientConnection, Thread> e : open) {
            if (e.getValue().isAlive()) {
                LOG.warn("Closing connection from {} in the middle of a request", e.getKey().remote());
                e.getKey().forceClose();
                join(e.getValue(), Duration.ofSeconds(1).toNanos());
            }
        }
    }

    private static void join(Thread thread, long nanos) {
        if (nanos <= 0) {
            return;
        }
        try {
            thread.join(Math.max(1, nanos / 1_000_000));
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
