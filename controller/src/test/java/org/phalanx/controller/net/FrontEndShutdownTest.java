package org.phalanx.controller.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.MessageReader;
import org.phalanx.protocol.MessageType;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stopping the front end: no new clients, requests in flight answered, then every connection closed. */
class FrontEndShutdownTest extends FrontEndTestBase {
    private final CountDownLatch slowStarted = new CountDownLatch(1);
    private final CountDownLatch slowMayFinish = new CountDownLatch(1);

    @Override
    SqliteSession newSession(String user) throws SQLException {
        return new SqliteSession(dir.resolve("demo.db"), user) {
            @Override
            public Result execute(Request r) throws SQLException {
                if (r.sql().equals("SLOW")) {
                    slowStarted.countDown();
                    try {
                        slowMayFinish.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return new Result.UpdateCount(42, null);
                }
                return super.execute(r);
            }
        };
    }

    @AfterEach
    void releaseSlowRequests() {
        slowMayFinish.countDown();
    }

    @Test
    void requestsInFlightAreAnsweredBeforeTheirConnectionCloses() throws Exception {
        int port = frontEnd.port();
        try (TestClient busy = loggedIn(); TestClient idle = loggedIn()) {
            busy.send(execute("SLOW"));
            assertTrue(slowStarted.await(5, TimeUnit.SECONDS));

            Thread stopper = new Thread(() -> frontEnd.stop(Duration.ofSeconds(10)));
            stopper.start();

            assertTrue(idle.closedByServer(), "an idle connection is closed at once");
            assertThrows(IOException.class, () -> new TestClient(port).close(), "no new connections");
            assertTrue(stopper.isAlive(), "stop waits for the request in flight");

            slowMayFinish.countDown();
            MessageReader reply = busy.receive();
            assertEquals(MessageType.UPDATE_COUNT, reply.type());
            assertEquals(42, reply.readLong());
            assertTrue(busy.closedByServer());

            stopper.join(5_000);
            assertFalse(stopper.isAlive());
        }
        for (SqliteSession s : sessions) {
            assertTrue(s.closed.await(5, TimeUnit.SECONDS));
        }
        assertEquals(0, frontEnd.openConnections());
    }

    @Test
    void aRequestThatOutlastsTheGraceIsCutOff() throws Exception {
        try (TestClient busy = loggedIn()) {
            busy.send(execute("SLOW"));
            assertTrue(slowStarted.await(5, TimeUnit.SECONDS));
            long started = System.nanoTime();
            frontEnd.stop(Duration.ofMillis(200));
            assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() < 3_000);
            assertTrue(busy.closedByServer());
        }
    }
}
