package org.phalanx.controller.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ClientSessionsTest {
    private final ClientSessions sessions = new ClientSessions();
    private final AtomicInteger closed = new AtomicInteger();

    /** A connection that ends (deregisters) when it is closed, as a ClientConnection's thread does after its request. */
    private ClientSessions.Open open(String id, String user) {
        ClientSessions.Open[] me = new ClientSessions.Open[1];
        me[0] = new ClientSessions.Open(user, () -> {
            closed.incrementAndGet();
            CompletableFuture.runAsync(() -> sessions.ended(id, me[0]));
        }, new CompletableFuture<>());
        assertTrue(sessions.opened(id, me[0]));
        return me[0];
    }

    @Test
    void theSameUsersOpenConnectionIsEndedAndWaitedFor() {
        ClientSessions.Open c = open("abc", "vdb/app");
        assertTrue(sessions.endAndWait("abc", "vdb/app", Duration.ofSeconds(5)));
        assertEquals(1, closed.get());
        assertTrue(c.ended().isDone());
        assertTrue(sessions.endAndWait("abc", "vdb/app", Duration.ofSeconds(5)), "gone: nothing to wait for");
    }

    @Test
    void anotherUsersConnectionIsLeftAlone() {
        open("abc", "vdb/app");
        assertFalse(sessions.endAndWait("abc", "vdb/intruder", Duration.ofSeconds(5)));
        assertEquals(0, closed.get());
    }

    @Test
    void anIdHeldByAnOpenConnectionIsNotGivenTwice() {
        open("abc", "vdb/app");
        assertFalse(sessions.opened("abc", new ClientSessions.Open("vdb/app", () -> { }, new CompletableFuture<>())));
    }

    @Test
    void aConnectionThatDoesNotEndInTimeIsReported() {
        assertTrue(sessions.opened("slow", new ClientSessions.Open("vdb/app", closed::incrementAndGet,
                new CompletableFuture<>())));
        assertFalse(sessions.endAndWait("slow", "vdb/app", Duration.ofMillis(100)));
        assertEquals(1, closed.get());
    }
}
