package org.phalanx.testkit.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void testJvmsSideBySideGetDisjointShares() {
        assertArrayEquals(new int[] {15_000, 32_000}, Ports.share(1, 1), "one JVM: the whole range");
        assertArrayEquals(new int[] {15_000, 23_500}, Ports.share(2, 1));
        assertArrayEquals(new int[] {23_500, 32_000}, Ports.share(2, 2));
        assertArrayEquals(new int[] {15_000, 32_000}, Ports.share(0, 7), "nonsense reads as one JVM");
    }

    @Test
    void aPortAndItsFailureDetectionWindowAreFree() throws IOException {
        int port = Ports.free();
        assertTrue(port >= 15_000 && port + 110 < 32_000, String.valueOf(port));
        assertFalse(Ports.listening(port));
    }
}
