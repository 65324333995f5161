package org.phalanx.controller.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final LoginThrottle throttle = new LoginThrottle(now::get);

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void eachFailureDoublesTheWaitForTheAddressAndTheUserUpToTheCap() {
        for (int i = 0; i < LoginThrottle.FREE_FAILURES; i++) {
            throttle.failed("10.0.0.1", "vdb/app");
            assertEquals(Duration.ZERO, throttle.wait("10.0.0.1", "vdb/app"), "a few mistakes cost nothing");
        }
        throttle.failed("10.0.0.1", "vdb/app");
        assertEquals(Duration.ofMillis(100), throttle.wait("10.0.0.1", "vdb/app"));
        assertEquals(Duration.ofMillis(100), throttle.wait("10.0.0.2", "vdb/app"), "the user, from anywhere");
        assertEquals(Duration.ofMillis(100), throttle.wait("10.0.0.1", "vdb/other"), "the address, for anyone");
        assertEquals(Duration.ZERO, throttle.wait("10.0.0.2", "vdb/other"));
        advance(Duration.ofMillis(100));
        throttle.failed("10.0.0.1", "vdb/app");
        assertEquals(Duration.ofMillis(200), throttle.wait("10.0.0.1", "vdb/app"));
        for (int i = 0; i < 40; i++) {
            throttle.failed("10.0.0.1", "vdb/app");
        }
        assertEquals(LoginThrottle.MAX_BACKOFF, throttle.wait("10.0.0.1", "vdb/app"));
        throttle.succeeded("10.0.0.1", "vdb/app");
        assertEquals(Duration.ZERO, throttle.wait("10.0.0.1", "vdb/app"));
    }

    @Test
    void aThousandFailuresAskForAFewLogLines() {
        int lines = 0;
        for (int i = 0; i < 1000; i++) {
            lines += throttle.failed("10.0.0.1", "vdb/app") ? 1 : 0;
        }
        assertTrue(lines <= 10, lines + " lines");
        assertTrue(throttle.failed("10.0.0.1", "vdb/someone else"), "another user's first failure is told");
    }
}
