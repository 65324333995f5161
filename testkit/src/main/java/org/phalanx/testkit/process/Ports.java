package org.phalanx.testkit.process;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** TCP ports on 127.0.0.1 for controllers started by tests and benchmarks. */
public final class Ports {
    private Ports() {
    }

    /**
     * Handed out from below Linux's ephemeral range (32768-60999): a port the system picks for an
     * outgoing connection (to a database, between group members) or a listener on port 0 can never
     * be one we gave a controller for later. A JMX port once collided so.
     */
    private static final int LOWEST_OF_ALL = 15_000;
    private static final int HIGHEST_OF_ALL = 32_000;
    /**
     * Test JVMs the build runs side by side ({@code phalanx.test.forks}) each take their own share
     * of that range ({@code phalanx.test.fork}, 1 to forks): a port one JVM has handed out but its
     * controller has not bound yet is never handed out by another.
     */
    private static final int[] SHARE = share(Integer.getInteger("phalanx.test.forks", 1),
            Integer.getInteger("phalanx.test.fork", 1));
    private static final int LOWEST = SHARE[0];
    private static final int HIGHEST = SHARE[1];
    /**
     * JGroups' failure detection (FD_SOCK2) listens at the group port + 100 and the few above it:
     * every port handed out keeps that window to itself, so no other port handed out lands there.
     */
    private static final int FAILURE_DETECTION_OFFSET = 100;
    private static final int FAILURE_DETECTION_RANGE = 10;

    /** Every port handed out by this JVM, with the failure-detection window above it. */
    private static final Set<Integer> TAKEN = new HashSet<>();

    /**
     * A port free right now, never one this JVM handed out before nor in the failure-detection
     * window of one. Another process may still take it before the controller binds it; tests accept
     * that small race rather than parse ports from logs.
     */
    public static synchronized int free() throws IOException {
        for (int attempt = 0; attempt < 1000; attempt++) {
            // the failure-detection window stays in this JVM's share too
            int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST - FAILURE_DETECTION_OFFSET - FAILURE_DETECTION_RANGE);
            int window = port + FAILURE_DETECTION_OFFSET;
            if (TAKEN.contains(port) || overlaps(window) || !bindable(port) || !bindable(window)) {
                continue;
            }
            TAKEN.add(port);
            for (int p = window; p < window + FAILURE_DETECTION_RANGE; p++) {
                TAKEN.add(p);
            }
            return port;
        }
        throw new IOException("no free port between " + LOWEST + " and " + HIGHEST + " after 1000 tries");
    }

    /** {lowest, highest (excluded)} of JVM {@code fork} (1 to {@code forks}) among {@code forks}. */
    static int[] share(int forks, int fork) {
        int n = Math.max(1, forks);
        int width = (HIGHEST_OF_ALL - LOWEST_OF_ALL) / n;
        int lowest = LOWEST_OF_ALL + (Math.min(n, Math.max(1, fork)) - 1) * width;
        return new int[] {lowest, lowest + width};
    }

    private static boolean overlaps(int window) {
        for (int p = window; p < window + FAILURE_DETECTION_RANGE; p++) {
            if (TAKEN.contains(p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket(port)) {
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }

    /** Whether something accepts connections on 127.0.0.1:{@code port}. */
    public static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }
}
