package org.phalanx.controller.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client connection's streams over a non-blocking channel, against a real loopback socket. */
@Timeout(30)
class ChannelStreamsTest {
    private ServerSocketChannel server;
    private SocketChannel accepted;
    private Socket client;
    private ChannelStreams streams;

    @BeforeEach
    void connect() throws IOException {
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = new Socket(InetAddress.getLoopbackAddress(), server.socket().getLocalPort());
        accepted = server.accept();
        streams = new ChannelStreams(accepted);
    }

    @AfterEach
    void close() throws IOException {
        streams.release();
        accepted.close();
        client.close();
        server.close();
    }

    @Test
    void aReadWaitsForTheClientAndTimesOutWhenItSaysNothing() throws Exception {
        streams.readTimeout(200);
        assertThrows(SocketTimeoutException.class, () -> streams.input().read(new byte[4], 0, 4));

        streams.readTimeout(0);
        CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
            try {
                return new DataInputStream(streams.input()).readInt();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        Thread.sleep(100);
        assertFalse(read.isDone());
        client.getOutputStream().write(new byte[] {0, 0, 1, 2});
        assertEquals(258, read.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aWriteLargerThanTheSocketBuffersCompletesAsTheClientReads() throws Exception {
        byte[] reply = new byte[8 << 20];
        for (int i = 0; i < reply.length; i++) {
            reply[i] = (byte) i;
        }
        CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
            try {
                streams.output().write(reply, 0, reply.length);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        byte[] got = new byte[reply.length];
        new DataInputStream(client.getInputStream()).readFully(got);
        written.get(10, TimeUnit.SECONDS);
        assertArrayEquals(reply, got);
    }

    @Test
    void closingTheChannelEndsAWaitAtOnce() throws Exception {
        CompletableFuture<Throwable> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                streams.input().read(new byte[1], 0, 1);
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        Thread.sleep(100);
        accepted.close();
        streams.wakeup();
        Throwable ended = waiting.get(5, TimeUnit.SECONDS);
        assertTrue(ended instanceof ClosedChannelException, String.valueOf(ended));
    }
}
