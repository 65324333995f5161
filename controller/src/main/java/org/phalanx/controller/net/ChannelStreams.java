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

/**
 * A plain (not TLS) client connection's channel, kept in non-blocking mode for good, read and
 * written as blocking streams by the thread serving it. A read with a timeout on a channel's own
 * socket switches the channel to non-blocking and back around every read (four {@code fcntl}
 * calls per request, measured with strace); here a read that finds nothing waits on a selector of
 * this connection's instead, and the mode never changes — the idle connections' selector takes the
 * channel as it is. The selector is opened at the first wait and closed by {@link #release()}.
 */
final class ChannelStreams {
    /** How often a wait looks whether the channel was closed meanwhile (a closed channel's key may not wake a select). */
    private static final long CHECK_CLOSED_MILLIS = 1000;

    private final SocketChannel channel;
    private Selector selector;
    private int readTimeoutMillis;

    /** @param channel in non-blocking mode */
    ChannelStreams(SocketChannel channel) {
        this.channel = channel;
    }

    /** Like {@code Socket.setSoTimeout}: how long a read waits for bytes (0: for ever). */
    void readTimeout(int millis) {
        this.readTimeoutMillis = millis;
    }

    InputStream input() {
        return new InputStream() {
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
                long deadline = readTimeoutMillis > 0 ? System.nanoTime() + readTimeoutMillis * 1_000_000L : 0;
                while (true) {
                    int n = channel.read(buffer);
                    if (n != 0) {
                        return n;
                    }
                    await(SelectionKey.OP_READ, deadline);
                }
            }
        };
    }

    OutputStream output() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
                while (buffer.hasRemaining()) {
                    if (channel.write(buffer) == 0) {
                        await(SelectionKey.OP_WRITE, 0); // a client that never reads: closeIfStuckWriting closes the channel
                    }
                }
            }
        };
    }

    /** Waits until the channel is ready for {@code op}, or throws once {@code deadline} (0: none) has passed. */
    private void await(int op, long deadline) throws IOException {
        if (selector == null) {
            selector = Selector.open();
        }
        SelectionKey key = channel.keyFor(selector);
        if (key == null) {
            key = channel.register(selector, op);
        } else {
            key.interestOps(op);
        }
        long wait = CHECK_CLOSED_MILLIS;
        if (deadline != 0) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new SocketTimeoutException("read timed out");
            }
            wait = Math.min(wait, left);
        }
        selector.select(wait);
        selector.selectedKeys().clear();
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    /** Closes the selector (the channel leaves it): before the connection waits idle, and when it ends. */
    void release() {
        if (selector != null) {
            try {
                selector.close();
            } catch (IOException e) {
                // nothing was waiting on it
            }
            selector = null;
        }
    }
}
