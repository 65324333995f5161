package org.phalanx.testkit.process;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** TCP ports on 127.0.0.1 for controllers started by tests and benchmarks. */
public final class Ports {
    private Ports() {
    }

    /**
     * A port free right now (the system's choice). Another process may take it before the
     * controller binds it; tests accept that small race rather than parse ports from logs.
     */
    public static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
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
