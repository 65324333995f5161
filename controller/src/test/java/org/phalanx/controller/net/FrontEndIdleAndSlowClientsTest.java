package org.phalanx.controller.net;

import org.junit.jupiter.api.Test;
import org.phalanx.controller.config.ListenConfig;
import org.phalanx.protocol.MessageType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connections that wait for their next request hold no thread, and a client that does not read its
 * reply is disconnected after the write timeout instead of pinning its reply, cursor and session.
 */
class FrontEndIdleAndSlowClientsTest extends FrontEndTestBase {
    private static final int LARGE_FRAMES = 16 << 20; // a result batch of up to 8 MiB
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(1);

    @Override
    ListenConfig listenConfig() {
        return new ListenConfig("127.0.0.1", 0, LARGE_FRAMES, 2000, 0, null, WRITE_TIMEOUT);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            Thread.sleep(20);
        }
    }

    /** Threads serving a connection now (a pooled thread takes its connection's name while it does). */
    private static long servingThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(ClientConnection.POOLED_THREAD_NAME + "-"))
                .count();
    }

    @Test
    void idleConnectionsHoldNoThreadAndAnswerAsSoonAsTheirClientSpeaks() throws Exception {
        List<TestClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                clients.add(loggedIn());
            }
            clients.get(0).call(execute("CREATE TABLE t(x)"));
            await("every connection waits idle", () -> frontEnd.idleConnections() == 50);
            assertEquals(0, servingThreads());

            for (int round = 0; round < 2; round++) { // woken, served, idle again, woken again
                for (TestClient c : clients) {
                    c.ok(TestClient.message(MessageType.PING));
                }
                assertEquals(MessageType.UPDATE_COUNT, clients.get(7).call(execute("INSERT INTO t VALUES (?)", round)).type());
                await("every connection waits idle again", () -> frontEnd.idleConnections() == 50);
            }
        } finally {
            for (TestClient c : clients) {
                c.close();
            }
        }
        await("every connection has ended", () -> frontEnd.openConnections() == 0);
        for (SqliteSession s : sessions) {
            assertTrue(s.closed.await(5, TimeUnit.SECONDS), "a session was left open");
        }
    }

    @Test
    void aShutdownEndsIdleConnectionsAndTheirSessions() throws Exception {
        List<TestClient> clients = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            clients.add(loggedIn());
        }
        await("every connection waits idle", () -> frontEnd.idleConnections() == 10);
        frontEnd.stop(Duration.ofSeconds(2));
        assertEquals(0, frontEnd.openConnections());
        for (SqliteSession s : sessions) {
            assertTrue(s.closed.await(5, TimeUnit.SECONDS), "a session was left open");
        }
        for (TestClient c : clients) {
            assertTrue(c.closedByServer());
            c.close();
        }
    }

    @Test
    void aClientThatDoesNotReadItsReplyIsDisconnectedAndItsSessionClosed() throws Exception {
        try (TestClient good = loggedIn(); TestClient reader = new TestClient(frontEnd.port(), 4096)) {
            reader.login("demo", "demo", "secret");
            SqliteSession itsSession = sessions.get(sessions.size() - 1);
            // about 20 MB of rows, the first reply 8 MiB: more than the sockets' buffers hold
            reader.send(query("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10000)"
                    + " SELECT x, randomblob(2000) FROM c", 10_000, 0, false));
            // and it reads nothing
            assertTrue(itsSession.closed.await(10, TimeUnit.SECONDS),
                    "the session of a client that reads nothing stayed open past the write timeout");
            assertTrue(reader.closedByServer());
            good.ok(TestClient.message(MessageType.PING));
            await("the connection has ended", () -> frontEnd.openConnections() == 1);
        }
    }
}
