package org.phalanx.bench.cluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.phalanx.bench.emulation.EmulationStats;

/**
 * A Phalanx controller in its own JVM, as in production (client and controller on different
 * machines; here they share the cores). Started as
 * {@code java -cp <this JVM's classpath> org.phalanx.controller.ControllerMain controller.xml}: the
 * harness's classpath holds the controller, its dependencies and the emulated-capacity driver.
 * The main class is {@link BenchControllerMain}: the same start and stop, plus a thread that
 * publishes the result caches' counters to the harness.
 * Stopped with SIGTERM, like {@code bin/phalanx controller}.
 */
public final class ControllerProcess implements AutoCloseable {
    public static final String USER = "bench";
    public static final String PASSWORD = "bench";
    /** Many virtual databases over in-memory H2 backends (each loads its script on start) take a while on a busy machine. */
    private static final long START_MILLIS = 240_000;

    private final Process process;
    private final int port;
    private final Path dir;
    private final Path statsFile;
    private final Path cacheFile;
    private final Path log;

    private ControllerProcess(Process process, int port, Path dir, Path statsFile, Path cacheFile, Path log) {
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.statsFile = statsFile;
        this.cacheFile = cacheFile;
        this.log = log;
    }

    /**
     * Writes controller.xml and one file per virtual database into {@code dir}, starts the
     * controller and waits until the first virtual database accepts a connection.
     *
     * @param cpus CPU list to pin the controller to with taskset (e.g. "0"), or null
     */
    public static ControllerProcess start(Path dir, List<VirtualDatabaseSpec> vdbs, String cpus) throws Exception {
        return start(dir, vdbs, cpus, List.of());
    }

    /** @param jvmOptions extra options for the controller's JVM (the smoke mode starts it with C1 only) */
    public static ControllerProcess start(Path dir, List<VirtualDatabaseSpec> vdbs, String cpus, List<String> jvmOptions)
            throws Exception {
        int port = freePort();
        Path config = writeConfig(dir, vdbs, port);
        Path stats = dir.resolve("emulation-stats.txt");
        Files.deleteIfExists(stats);
        Path cache = dir.resolve("cache-counters.txt");
        Files.deleteIfExists(cache);
        Path log = dir.resolve("controller.log");

        List<String> cmd = new ArrayList<>();
        if (cpus != null) {
            cmd.addAll(List.of("taskset", "-c", cpus));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xms512m");
        cmd.add("-Xmx2g");
        cmd.addAll(jvmOptions);
        cmd.add("-D" + EmulationStats.PROPERTY + "=" + stats);
        cmd.add("-D" + CacheCounters.PROPERTY + "=" + cache);
        cmd.add("-cp");
        cmd.add(classpath());
        cmd.add(BenchControllerMain.class.getName());
        cmd.add(config.toString());
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        ControllerProcess cp = new ControllerProcess(p, port, dir, stats, cache, log);
        try {
            cp.awaitReady(vdbs.get(0).name());
        } catch (Exception e) {
            cp.close();
            throw e;
        }
        return cp;
    }

    /**
     * Writes controller.xml (listening on 127.0.0.1:{@code port}) and one file per virtual
     * database into {@code dir}; returns controller.xml.
     */
    public static Path writeConfig(Path dir, List<VirtualDatabaseSpec> vdbs, int port) throws IOException {
        Files.createDirectories(dir);
        StringBuilder controllerXml = new StringBuilder();
        controllerXml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<controller xmlns=\"urn:phalanx:controller:1\">\n");
        controllerXml.append("  <listen address=\"127.0.0.1\" port=\"").append(port).append("\"/>\n");
        for (VirtualDatabaseSpec v : vdbs) {
            Path file = dir.resolve("vdb-" + v.name() + ".xml");
            Files.writeString(file, v.xml(), StandardCharsets.UTF_8);
            controllerXml.append("  <virtualDatabase file=\"").append(file.getFileName()).append("\"/>\n");
        }
        controllerXml.append("</controller>\n");
        Path config = dir.resolve("controller.xml");
        Files.writeString(config, controllerXml.toString(), StandardCharsets.UTF_8);
        return config;
    }

    private void awaitReady(String vdb) throws Exception {
        long deadline = System.currentTimeMillis() + START_MILLIS;
        SQLException last = null;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the controller exited with status " + process.exitValue() + ":\n"
                        + logTail());
            }
            try (Connection c = DriverManager.getConnection(url(vdb), USER, PASSWORD);
                 java.sql.Statement s = c.createStatement()) {
                // one statement through the whole path: the SQL parser and the pools are loaded before any timing
                s.executeQuery("SELECT 1").close();
                return;
            } catch (SQLException e) {
                last = e;
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("the controller did not accept connections within " + START_MILLIS / 1000
                + " s (" + (last == null ? "" : last.getMessage()) + "):\n" + logTail());
    }

    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    public String url(String vdb) {
        return "jdbc:phalanx://127.0.0.1:" + port + "/" + vdb;
    }

    public long pid() {
        return process.pid();
    }

    public Path dir() {
        return dir;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The emulated servers' counters as last published by the controller process. */
    public Map<String, EmulationStats.Counters> emulationStats() {
        return EmulationStats.read(statsFile);
    }

    /** The result caches' counters and the answer times, per virtual database, as last published by the controller. */
    public CacheCounters.Published published() {
        return CacheCounters.read(cacheFile);
    }

    /** This JVM's classpath with absolute entries (the controller runs in another folder). */
    static String classpath() {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (e.isEmpty()) {
                continue;
            }
            if (e.endsWith("*")) {
                entries.add(Path.of(e.substring(0, e.length() - 1)).toAbsolutePath() + java.io.File.separator + "*");
            } else {
                entries.add(Path.of(e).toAbsolutePath().toString());
            }
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroy(); // SIGTERM: the controller shuts down in order
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
