package org.phalanx.testkit.process;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Stands in for a controller in {@link ControllerProcessTest}: its "configuration" holds a port
 * (or "exit" to fail at once); it listens there, says it has started, and runs until stopped.
 */
public final class FakeController {
    private FakeController() {
    }

    public static void main(String[] args) throws Exception {
        String config = Files.readString(Path.of(args[0])).strip();
        if (config.equals("exit")) {
            System.out.println("cannot start: told to exit");
            System.exit(3);
        }
        try (ServerSocket s = new ServerSocket(Integer.parseInt(config), 50, InetAddress.getLoopbackAddress())) {
            System.out.println(ControllerProcessBuilder.STARTED + " 127.0.0.1:" + config
                    + " (property " + System.getProperty("fake.property") + ")");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
