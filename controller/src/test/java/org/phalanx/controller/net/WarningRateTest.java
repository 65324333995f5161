package org.phalanx.controller.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WarningRateTest {
    @Test
    void aFloodIsOneLineThenOneSayingHowManyWereLeftOut() throws InterruptedException {
        WarningRate rate = new WarningRate(Duration.ofMillis(200));
        assertEquals(0, rate.admit());
        for (int i = 0; i < 1000; i++) {
            assertEquals(-1, rate.admit());
        }
        Thread.sleep(250);
        assertEquals(1000, rate.admit());
        assertEquals(-1, rate.admit());
        assertEquals(" (1000 more like it since the last such line, not logged)", WarningRate.leftOut(1000));
        assertEquals("", WarningRate.leftOut(0));
    }
}
