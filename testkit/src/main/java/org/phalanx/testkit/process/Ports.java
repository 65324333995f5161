package org.phalanx.testkit.process;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** TCP ports on 127.0.0.1 for controllers started by tests and benchmarks. */
public final class Ports {
    private Ports() {
    }

    /** Every port handed out by this JVM: two calls in a row may get the same one from the system. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /**
     * A port free right now (the system's choice), never one this JVM handed out before (a
     * controller's client and JMX ports, asked for one after the other, once came out the same).
     * Another process may take it before the controller binds it; tests accept that small race
     * rather than parse ports from logs.
     */
    public static int free() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IOException("the system offered only ports this JVM has handed out already");
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
