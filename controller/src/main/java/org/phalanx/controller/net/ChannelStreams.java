package org.phalanx.controller.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * Blocking streams, with a read timeout, over a client's channel kept in non-blocking mode: a read
 * or write that cannot proceed at once waits in a selector of the connection's own. Why not the
 * channel's socket streams: on Java 17 a timed read through them switches the channel to
 * non-blocking mode and back around every read — four {@code fcntl} system calls per request, as
 * many as the request's own reads and writes on both sides, on machines where each system call is
 * what a request costs most. Here a request that has arrived costs one {@code read}.
 */
final class ChannelStreams {
    /** How long a wait lasts at most before looking whether the channel was closed meanwhile. */
    private static final long SLICE_MILLIS = 1000;

    private final SocketChannel channel;
    private final InputStream input = new Input();
    private final OutputStream output = new Output();
    /** The wait's selector, opened at the first wait, closed while the connection waits idle elsewhere. */
    private Selector selector;
    private SelectionKey key;
    private volatile int readTimeoutMillis;
    /**
     * An answer went out since the last read: the client reads it before it asks again, so the next
     * read waits in the selector first instead of trying a read that finds nothing (a system call
     * saved per request). Either value is correct: a wait returns at once when the client has spoken.
     */
    private volatile boolean answered;

    ChannelStreams(SocketChannel channel) throws IOException {
        this.channel = channel;
        channel.configureBlocking(false);
    }

    InputStream input() {
        return input;
    }

    OutputStream output() {
        return output;
    }

    /** How long a read waits for its first byte (0: for ever); past it, {@link SocketTimeoutException}. */
    void readTimeout(int millis) {
        readTimeoutMillis = millis;
    }

    /** Lets go of the selector (the connection waits idle, or ends): it holds a file descriptor. */
    void release() {
        Selector s;
        synchronized (this) {
            s = selector;
            selector = null;
            key = null;
        }
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // nothing was waiting
            }
        }
    }

    /** Wakes a wait, so that it sees the channel closed. */
    void wakeup() {
        Selector s;
        synchronized (this) {
            s = selector;
        }
        if (s != null) {
            s.wakeup();
        }
    }

    /**
     * Waits until the channel can be read or written ({@code op}), or {@code deadline}
     * ({@link System#nanoTime}, 0: none) passes: false then.
     */
    private boolean await(int op, long deadline) throws IOException {
        SelectionKey k = key(op);
        while (true) {
            if (!channel.isOpen()) {
                throw new ClosedChannelException();
            }
            long wait = SLICE_MILLIS;
            if (deadline != 0) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                wait = Math.min(wait, left);
            }
            int ready = k.selector().select(wait);
            k.selector().selectedKeys().clear();
            if (ready > 0) {
                return true;
            }
        }
    }

    private synchronized SelectionKey key(int op) throws IOException {
        if (selector == null) {
            selector = Selector.open();
            key = channel.register(selector, op);
        } else if (key.interestOps() != op) {
            key.interestOps(op);
        }
        return key;
    }

    private final class Input extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            int timeout = readTimeoutMillis;
            long deadline = timeout == 0 ? 0 : (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout)) | 1;
            if (answered) {
                answered = false;
                if (!await(SelectionKey.OP_READ, deadline)) {
                    throw new SocketTimeoutException("Read timed out");
                }
            }
            while (true) {
                int n = channel.read(buffer);
                if (n != 0) {
                    return n;
                }
                if (!await(SelectionKey.OP_READ, deadline)) {
                    throw new SocketTimeoutException("Read timed out");
                }
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    private final class Output extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        /** Writes everything, waiting as long as the client takes to read (the write timeout watches that). */
        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (buffer.hasRemaining()) {
                if (channel.write(buffer) == 0) {
                    await(SelectionKey.OP_WRITE, 0);
                }
            }
            answered = true;
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
