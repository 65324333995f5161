package org.phalanx.bench.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.phalanx.testkit.jdbc.EmulationStats;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * The controller of a benchmark, in its own JVM as in production (client and controller on
 * different machines; here they share the cores): its configuration files, the URLs of its
 * virtual databases and the counters it publishes. Started as a test kit {@link ControllerProcess}
 * with the harness's classpath (the controller, its dependencies and the emulated-capacity
 * driver) and {@link BenchControllerMain}: the same start and stop as {@code bin/phalanx
 * controller}, plus a thread publishing the result caches' counters to the harness. Stopped with
 * SIGTERM, like {@code bin/phalanx controller}.
 */
public final class BenchController implements AutoCloseable {
    public static final String USER = "bench";
    public static final String PASSWORD = "bench";
    /** Many virtual databases over in-memory H2 backends (each loads its script on start) take a while on a busy machine. */
    private static final Duration START = Duration.ofMinutes(4);

    private final ControllerProcess process;
    private final int port;
    private final Path dir;
    private final Path statsFile;
    private final Path cacheFile;

    private BenchController(ControllerProcess process, int port, Path dir, Path statsFile, Path cacheFile) {
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.statsFile = statsFile;
        this.cacheFile = cacheFile;
    }

    /**
     * Writes controller.xml and one file per virtual database into {@code dir}, starts the
     * controller and waits until the first virtual database answers a query (so the SQL parser
     * and the pools are loaded before any timing).
     *
     * @param cpus CPU list to pin the controller to with taskset (e.g. "0"), or null
     * @param jvmOptions extra options for the controller's JVM (the smoke mode starts it with C1 only)
     */
    public static BenchController start(Path dir, List<VirtualDatabaseSpec> vdbs, String cpus, List<String> jvmOptions)
            throws Exception {
        int port = Ports.free();
        Path config = writeConfig(dir, vdbs, port);
        Path stats = dir.resolve("emulation-stats.txt");
        Files.deleteIfExists(stats);
        Path cache = dir.resolve("cache-counters.txt");
        Files.deleteIfExists(cache);
        String firstUrl = url(port, vdbs.get(0).name());
        ControllerProcess process = ControllerProcess.java(BenchControllerMain.class.getName(), config)
                .cpus(cpus).jvmOptions("-Xms512m", "-Xmx2g").jvmOptions(jvmOptions)
                .systemProperty(EmulationStats.PROPERTY, stats).systemProperty(CacheCounters.PROPERTY, cache)
                .directory(dir).output(dir.resolve("controller.log"))
                .awaitReady("a query on " + firstUrl, () -> {
                    try (Connection c = DriverManager.getConnection(firstUrl, USER, PASSWORD);
                         Statement s = c.createStatement()) {
                        s.executeQuery("SELECT 1").close();
                    }
                })
                .startTimeout(START).stopTimeout(Duration.ofSeconds(20)).start();
        return new BenchController(process, port, dir, stats, cache);
    }

    /**
     * A member of a distributed virtual database's group: like {@link #start}, but ready once its
     * client port listens (a member that is not the primary refuses sessions).
     */
    public static BenchController startMember(Path dir, List<VirtualDatabaseSpec> vdbs, String cpus,
                                              List<String> jvmOptions) throws Exception {
        int port = Ports.free();
        Path config = writeConfig(dir, vdbs, port);
        Path stats = dir.resolve("emulation-stats.txt");
        Files.deleteIfExists(stats);
        Path cache = dir.resolve("cache-counters.txt");
        Files.deleteIfExists(cache);
        ControllerProcess process = ControllerProcess.java(BenchControllerMain.class.getName(), config)
                .cpus(cpus).jvmOptions("-Xms512m", "-Xmx2g").jvmOptions(jvmOptions)
                .systemProperty(EmulationStats.PROPERTY, stats).systemProperty(CacheCounters.PROPERTY, cache)
                .directory(dir).output(dir.resolve("controller.log")).awaitPorts(port)
                .startTimeout(START).stopTimeout(Duration.ofSeconds(20)).start();
        return new BenchController(process, port, dir, stats, cache);
    }

    /** The host:port clients connect to. */
    public String address() {
        return "127.0.0.1:" + port;
    }

    /** kill -9. */
    public void kill() throws InterruptedException {
        process.process().destroyForcibly().waitFor();
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

    private static String url(int port, String vdb) {
        return "jdbc:phalanx://127.0.0.1:" + port + "/" + vdb;
    }

    public String logTail() {
        return process.outputTail(30);
    }

    public String url(String vdb) {
        return url(port, vdb);
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

    @Override
    public void close() {
        process.close();
    }
}
