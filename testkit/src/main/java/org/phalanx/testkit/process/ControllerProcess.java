package org.phalanx.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A controller running as a process of its own, as in production; started by a
 * {@link ControllerProcessBuilder}. {@link #close()} stops it as an operator does (SIGTERM: the
 * controller shuts down in order), killing it if it does not end.
 */
public final class ControllerProcess implements AutoCloseable {
    private final Process process;
    private final Path output;
    private final Duration stopTimeout;

    ControllerProcess(Process process, Path output, Duration stopTimeout) {
        this.process = process;
        this.output = output;
        this.stopTimeout = stopTimeout;
    }

    /** {@code bin/phalanx controller controllerXml}: the packaged controller, as an operator runs it. */
    public static ControllerProcessBuilder launcher(Path controllerXml) {
        return new ControllerProcessBuilder(true, null, controllerXml);
    }

    /**
     * {@code java -cp <class path> mainClass controllerXml}: by default with this JVM's class path,
     * so the controller sees what the caller sees (the fault-injecting driver, a bench's main class).
     */
    public static ControllerProcessBuilder java(String mainClass, Path controllerXml) {
        return new ControllerProcessBuilder(false, mainClass, controllerXml);
    }

    /**
     * The common case of the end-to-end tests: {@code bin/phalanx controller controllerXml}, output
     * in {@code output}, started once every port accepts connections and the controller says so.
     */
    public static ControllerProcess launch(Path controllerXml, Path output, int... ports) throws IOException,
            InterruptedException {
        return launcher(controllerXml).output(output).awaitPorts(ports).awaitStarted().start();
    }

    public Process process() {
        return process;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** What the controller printed so far. */
    public String output() throws IOException {
        return Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
    }

    /** The last lines of the output (for error messages); never fails. */
    public String outputTail(int lines) {
        try {
            List<String> all = Files.exists(output) ? Files.readAllLines(output, StandardCharsets.UTF_8) : List.of();
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** Waits for the process to exit by itself (e.g. after a shutdown over JMX); its exit code. */
    public int awaitExit() throws InterruptedException, IOException {
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            throw new IOException("the controller did not exit: " + outputTail(100));
        }
        return process.exitValue();
    }

    /** SIGTERM (an orderly stop), then a kill if it does not end within the stop timeout. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
