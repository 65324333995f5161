package org.phalanx.controller.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A controller run as its own process through the launcher ({@code bin/phalanx controller}), as
 * an operator runs it. Integration tests only: the launcher needs the packaged jars.
 */
public final class ControllerProcess implements AutoCloseable {
    /** The repository root: tests run in a module folder one level below it. */
    public static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    public static final Path LAUNCHER = ROOT.resolve("bin/phalanx");

    private final Process process;
    private final Path output;

    private ControllerProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /**
     * Starts {@code bin/phalanx controller controllerXml} (output in {@code output}) and waits
     * until every given port accepts connections and the controller says it has started.
     */
    public static ControllerProcess start(Path controllerXml, Path output, int... ports) throws IOException,
            InterruptedException {
        Process p = new ProcessBuilder(List.of(LAUNCHER.toString(), "controller", controllerXml.toString()))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        ControllerProcess controller = new ControllerProcess(p, output);
        try {
            for (int port : ports) {
                controller.waitForPort(port);
            }
            // the JMX port opens before the connector is bound in it: wait for the end of the start
            controller.waitForOutput("Phalanx controller listening on");
        } catch (IOException | RuntimeException e) {
            controller.close();
            throw e;
        }
        return controller;
    }

    private void waitForPort(int port) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException notYet) {
                if (!process.isAlive()) {
                    throw new IOException("the controller exited (" + process.exitValue() + "): " + output());
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("the controller did not listen on port " + port + ": " + output());
                }
                Thread.sleep(100);
            }
        }
    }

    private void waitForOutput(String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5); // a loaded machine starts JVMs slowly
        while (!output().contains(text)) {
            if (!process.isAlive()) {
                throw new IOException("the controller exited (" + process.exitValue() + ") before saying '" + text
                        + "': " + output());
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the controller (still running) did not say '" + text + "': " + output());
            }
            Thread.sleep(50);
        }
    }

    public Process process() {
        return process;
    }

    /** What the controller printed so far. */
    public String output() throws IOException {
        return Files.exists(output) ? Files.readString(output) : "";
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Waits for the process to exit by itself (e.g. after a shutdown over JMX); its exit code. */
    public int awaitExit() throws InterruptedException, IOException {
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            throw new IOException("the controller did not exit: " + output());
        }
        return process.exitValue();
    }

    /** SIGTERM (an orderly stop), then a kill if it does not end. */
    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(1, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
