package org.phalanx.samples;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs bin/phalanx as a user does, for the sample tests. */
final class Launcher {
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path LAUNCHER = ROOT.resolve("bin/phalanx");

    private Launcher() {
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Starts {@code bin/phalanx args...} with its output (both streams) going to {@code output}. */
    static Process launch(Path output, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(LAUNCHER.toString());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    static void waitForPort(int port, Process process, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("controller exited: " + Files.readString(log));
            }
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("controller did not listen within 60 s: " + Files.readString(log));
    }
}
