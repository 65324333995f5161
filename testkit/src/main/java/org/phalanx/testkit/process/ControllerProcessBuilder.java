package org.phalanx.testkit.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How to start a controller process and when it counts as started. Made by
 * {@link ControllerProcess#launcher} ({@code bin/phalanx controller}, as an operator runs it) or
 * {@link ControllerProcess#java} (a main class on a class path: the caller's, which may hold the
 * fault-injecting driver). {@link #start()} returns once every condition holds, or fails with the
 * process's output if it exits or the start timeout passes.
 */
public final class ControllerProcessBuilder {
    /** What the controller logs once it has started (the JMX connector included). */
    public static final String STARTED = "Phalanx controller listening on";

    /** A check that the controller serves; it throws while it does not yet. */
    @FunctionalInterface
    public interface ReadyCheck {
        void check() throws Exception;
    }

    private final boolean viaLauncher;
    private final String mainClass;
    private final Path controllerXml;
    private String classpath;
    private final List<String> jvmOptions = new ArrayList<>();
    private String cpus;
    private Path directory;
    private Path output;
    private final List<Integer> ports = new ArrayList<>();
    private final List<String> outputs = new ArrayList<>();
    private final Map<String, ReadyCheck> checks = new LinkedHashMap<>();
    private Duration startTimeout = Duration.ofMinutes(5); // a loaded machine starts JVMs slowly
    private Duration stopTimeout = Duration.ofMinutes(1);

    /**
     * JVM options every controller a test starts gets first, from the system property of this name
     * (space-separated; the build sets it for its tests: a JIT that stops at C1, since test controllers
     * live seconds and most of a JVM's CPU in its first seconds is C2 compiling — measured a quarter
     * of the distributed tests' CPU). Benchmarks do not set it.
     */
    public static final String DEFAULT_JVM_OPTIONS = "phalanx.test.controllerJvmOptions";

    ControllerProcessBuilder(boolean viaLauncher, String mainClass, Path controllerXml) {
        this.viaLauncher = viaLauncher;
        this.mainClass = mainClass;
        this.controllerXml = controllerXml;
        String defaults = System.getProperty(DEFAULT_JVM_OPTIONS, "").strip();
        if (!defaults.isEmpty()) {
            jvmOptions.addAll(List.of(defaults.split("\\s+")));
        }
    }

    /** The class path of a {@link ControllerProcess#java} process (default: this JVM's, {@link Classpath#current()}). */
    public ControllerProcessBuilder classpath(String classpath) {
        this.classpath = classpath;
        return this;
    }

    /** JVM options; through {@code PHALANX_JAVA_OPTS} for the launcher. */
    public ControllerProcessBuilder jvmOptions(String... options) {
        jvmOptions.addAll(List.of(options));
        return this;
    }

    public ControllerProcessBuilder jvmOptions(List<String> options) {
        jvmOptions.addAll(options);
        return this;
    }

    public ControllerProcessBuilder systemProperty(String name, Object value) {
        return jvmOptions("-D" + name + "=" + value);
    }

    /** Pins the process to these CPUs with taskset (e.g. "0" or "0,1"); null: not pinned. */
    public ControllerProcessBuilder cpus(String cpus) {
        this.cpus = cpus;
        return this;
    }

    /** The working directory (relative paths in the configuration resolve against the file anyway). */
    public ControllerProcessBuilder directory(Path directory) {
        this.directory = directory;
        return this;
    }

    /** Where both output streams go (default: {@code controller.out} beside the configuration). */
    public ControllerProcessBuilder output(Path output) {
        this.output = output;
        return this;
    }

    /** Started once these ports accept connections. */
    public ControllerProcessBuilder awaitPorts(int... ports) {
        for (int p : ports) {
            this.ports.add(p);
        }
        return this;
    }

    /** Started once the output contains this text. */
    public ControllerProcessBuilder awaitOutput(String text) {
        outputs.add(text);
        return this;
    }

    /**
     * Started once the controller says so ({@link #STARTED}): the JMX port opens before the
     * connector is bound in it, so a port alone is not enough for a JMX client.
     */
    public ControllerProcessBuilder awaitStarted() {
        return awaitOutput(STARTED);
    }

    /** Started once {@code check} passes (e.g. a query through the Phalanx driver); retried every 100 ms. */
    public ControllerProcessBuilder awaitReady(String what, ReadyCheck check) {
        checks.put(what, check);
        return this;
    }

    public ControllerProcessBuilder startTimeout(Duration timeout) {
        this.startTimeout = timeout;
        return this;
    }

    /** How long {@link ControllerProcess#close()} lets an orderly stop take before it kills. */
    public ControllerProcessBuilder stopTimeout(Duration timeout) {
        this.stopTimeout = timeout;
        return this;
    }

    public ControllerProcess start() throws IOException, InterruptedException {
        Path out = output != null ? output : controllerXml.toAbsolutePath().resolveSibling("controller.out");
        Files.createDirectories(out.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(command()).redirectErrorStream(true).redirectOutput(out.toFile());
        if (directory != null) {
            pb.directory(directory.toFile());
        }
        if (viaLauncher && !jvmOptions.isEmpty()) { // after any the caller's environment gives (a log configuration)
            String inherited = pb.environment().getOrDefault("PHALANX_JAVA_OPTS", "");
            pb.environment().put("PHALANX_JAVA_OPTS", (inherited + " " + String.join(" ", jvmOptions)).strip());
        }
        ControllerProcess controller = new ControllerProcess(pb.start(), out, stopTimeout);
        try {
            new StartWait(controller, System.nanoTime() + startTimeout.toNanos()).await(ports, outputs, checks);
        } catch (IOException | InterruptedException | RuntimeException e) {
            controller.close();
            throw e;
        }
        return controller;
    }

    private List<String> command() {
        List<String> cmd = new ArrayList<>();
        if (cpus != null) {
            cmd.addAll(List.of("taskset", "-c", cpus));
        }
        if (viaLauncher) {
            cmd.addAll(Launcher.command("controller", controllerXml.toString()));
            return cmd;
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classpath != null ? classpath : Classpath.current());
        cmd.add(mainClass);
        cmd.add(controllerXml.toString());
        return cmd;
    }
}
