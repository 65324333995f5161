package org.phalanx.controller.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.phalanx.controller.config.ListenConfig;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.MessageType;

/** The connection caps: one more than allowed gets 53300 for its HELLO, and the others go on. */
class FrontEndLimitsTest extends FrontEndTestBase {
    @Override
    ListenConfig listenConfig() {
        return new ListenConfig("127.0.0.1", 0, MAX_FRAME, 3, 2);
    }

    /** Closed connections stop counting once their threads have ended. */
    private void awaitOpenConnections(int n) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (frontEnd.openConnections() > n && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    @Test
    void oneConnectionTooManyForTheUserIsRefusedWith53300() throws Exception {
        awaitOpenConnections(0);
        try (TestClient first = loggedIn(); TestClient second = loggedIn(); TestClient third = client()) {
            ErrorReply refused = TestClient.error(third.call(TestClient.hello("demo", "demo", "secret")));
            assertEquals("53300", refused.sqlState(), refused.message());
            assertTrue(refused.message().contains("maxConnectionsPerUser"), refused.message());
            first.ok(TestClient.message(MessageType.PING));
        }
        awaitOpenConnections(0);
        try (TestClient again = loggedIn()) { // the connections that closed no longer count
            again.ok(TestClient.message(MessageType.PING));
        }
    }

    @Test
    void oneConnectionTooManyForTheControllerIsRefusedWith53300() throws Exception {
        awaitOpenConnections(0);
        try (TestClient a = loggedIn(); TestClient b = loggedIn(); TestClient c = client()) {
            Thread.sleep(100); // the third is counted once accepted
            try (TestClient fourth = client()) {
                ErrorReply refused = TestClient.error(fourth.call(TestClient.hello("demo", "demo", "secret")));
                assertEquals("53300", refused.sqlState(), refused.message());
                assertTrue(refused.message().contains("maxConnections"), refused.message());
            }
            a.ok(TestClient.message(MessageType.PING));
        }
    }
}
