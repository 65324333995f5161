package org.phalanx.controller.net;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;

/**
 * Client connections waiting for their next request without a thread: one selector watches them
 * all, and a connection whose client sends something (or which is closed meanwhile) goes back to a
 * pooled thread, where it reads and answers with blocking I/O as before. A busy connection never
 * comes here; one that has been quiet for a while ({@link ClientConnection#PARK_AFTER}) costs a
 * selection key instead of a thread, so thousands of pooled, mostly idle connections are cheap.
 */
final class IdleConnections implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(IdleConnections.class);

    private final Selector selector;
    private final Executor threads;
    private final Queue<ClientConnection> arriving = new ConcurrentLinkedQueue<>();
    private final Set<ClientConnection> parked = ConcurrentHashMap.newKeySet();
    private final Thread watcher;
    private volatile boolean closed;

    /** @param threads where a connection goes on when its client speaks again */
    IdleConnections(Executor threads) throws IOException {
        this.threads = threads;
        this.selector = Selector.open();
        this.watcher = new Thread(this::watch, "phalanx-idle-connections");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Takes a connection whose channel is in non-blocking mode and whose thread has let go of it. */
    void park(ClientConnection connection) {
        arriving.add(connection);
        selector.wakeup();
    }

    /** Makes the watcher look again: a parked connection may have been closed. */
    void wake() {
        selector.wakeup();
    }

    int size() {
        return parked.size() + arriving.size();
    }

    private void watch() {
        List<ClientConnection> resumed = new ArrayList<>();
        while (!closed) {
            try {
                // the selectNow() below clears a wakeup() that came since the last select: a connection
                // parked in that moment would wait unregistered until the next wakeup, so look first
                if (arriving.isEmpty()) {
                    selector.select();
                } else {
                    selector.selectNow();
                }
                for (ClientConnection c; (c = arriving.poll()) != null; ) {
                    try {
                        c.channel().register(selector, SelectionKey.OP_READ, c);
                        parked.add(c);
                    } catch (ClosedChannelException e) {
                        resumed.add(c); // closed while on its way here: its thread finds out and ends it
                    }
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    key.cancel();
                    ClientConnection c = (ClientConnection) key.attachment();
                    parked.remove(c);
                    resumed.add(c);
                }
                selector.selectedKeys().clear();
                // a channel closed while parked has lost its key without being selected
                for (ClientConnection c : parked) {
                    if (!c.channel().isOpen()) {
                        parked.remove(c);
                        resumed.add(c);
                    }
                }
                // deregisters the cancelled keys: a channel can block again only once it has none
                selector.selectNow();
                resumed.forEach(threads::execute);
                resumed.clear();
            } catch (IOException | RuntimeException e) {
                if (!closed) {
                    LOG.error("Watching idle client connections failed", e);
                }
            }
        }
    }

    /** Stops watching; the connections still parked are handed back (to end, since their channels are closed by then). */
    @Override
    public void close() {
        closed = true;
        selector.wakeup();
        try {
            watcher.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            selector.close(); // deregisters every channel, so that each can block again
        } catch (IOException e) {
            // nothing left to watch
        }
        parked.forEach(threads::execute);
        arriving.forEach(threads::execute);
        parked.clear();
        arriving.clear();
    }
}
