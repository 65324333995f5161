package org.phalanx.bench.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.phalanx.bench.workload.Workload;
import org.phalanx.testkit.jdbc.CostModel;
import org.phalanx.testkit.jdbc.FaultyDriver;

/**
 * Emulated-capacity backends over real database files: the workload's dataset is loaded once
 * into a template file, each backend gets its own copy, and its URL wraps the copy's URL in
 * {@link FaultyDriver} with K slots and a cost model.
 *
 * <ul>
 *   <li>{@link Engine#SQLITE}: SQLite files. Phalanx sees {@code :sqlite:} in the URL and, with
 *       {@code lockGranularity="auto"}, locks the whole database for a writing transaction.</li>
 *   <li>{@link Engine#H2}: in-memory H2 databases (inside the controller process, loaded from
 *       a script on first use), an engine with row locks, for the transactional workloads, which
 *       then run with {@code lockGranularity="table"} as over PostgreSQL.</li>
 * </ul>
 */
public final class EmulatedBackends {

    /** The real engine under the emulation. */
    public enum Engine { SQLITE, H2 }

    private final Path dir;
    private final Engine engine;
    private final Path template;
    private final Path costs;
    private final int slots;

    private EmulatedBackends(Path dir, Engine engine, Path template, Path costs, int slots) {
        this.dir = dir;
        this.engine = engine;
        this.template = template;
        this.costs = costs;
        this.slots = slots;
    }

    /** Loads the workload's dataset into a template in {@code dir} and writes the cost model there. */
    public static EmulatedBackends prepare(Path dir, Engine engine, Workload workload, CostModel model, int slots)
            throws SQLException, IOException {
        Files.createDirectories(dir);
        Path costs = dir.resolve("model.costs");
        model.write(costs);
        Path template;
        if (engine == Engine.SQLITE) {
            template = dir.resolve("template.db");
            Files.deleteIfExists(template);
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + template)) {
                workload.load(c);
            }
        } else {
            template = dir.resolve("template.sql");
            Files.deleteIfExists(template);
            String mem = "jdbc:h2:mem:template-" + Math.abs(dir.toString().hashCode());
            try (Connection c = DriverManager.getConnection(mem, "sa", "")) {
                workload.load(c);
                try (Statement s = c.createStatement()) {
                    s.execute("SCRIPT TO '" + template.toString().replace("'", "''") + "'");
                }
            }
        }
        return new EmulatedBackends(dir, engine, template, costs, slots);
    }

    /** Copies the template for each of {@code n} backends named {@code prefix + i}. */
    public List<BackendSpec> backends(String prefix, int n, int poolSize) throws IOException {
        return backends(prefix, n, poolSize, i -> List.of());
    }

    /**
     * The same, for partial replication: backend i (1-based) holds every table of the dataset but
     * those {@code without.apply(i)} names, so that each backend's schema (which the controller
     * learns from its metadata) is what the placement says.
     */
    public List<BackendSpec> backends(String prefix, int n, int poolSize, IntFunction<List<String>> without)
            throws IOException {
        List<BackendSpec> list = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            String name = prefix + i;
            List<String> dropped = without.apply(i);
            String url;
            if (engine == Engine.SQLITE) {
                Path file = dir.resolve(name + ".db");
                Files.copy(template, file, StandardCopyOption.REPLACE_EXISTING);
                dropTables("jdbc:sqlite:" + file, dropped);
                // durability is part of the emulated service time, not of the real file
                url = FaultyDriver.url(name, slots, costs, null, "jdbc:sqlite:" + file + "?synchronous=OFF");
            } else {
                Path init = template;
                if (!dropped.isEmpty()) {
                    // the template script, then the drops: run once when the backend's in-memory database starts
                    init = dir.resolve(name + ".sql");
                    Files.copy(template, init, StandardCopyOption.REPLACE_EXISTING);
                    StringBuilder drops = new StringBuilder("\n");
                    dropped.forEach(t -> drops.append("DROP TABLE ").append(t).append(";\n"));
                    Files.writeString(init, drops, java.nio.file.StandardOpenOption.APPEND);
                }
                url = FaultyDriver.url(name, slots, costs, init,
                        "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
            }
            list.add(new BackendSpec(name, url,
                    FaultyDriver.class.getName(), engine == Engine.H2 ? "sa" : null, engine == Engine.H2 ? "" : null,
                    poolSize));
        }
        return list;
    }

    private static void dropTables(String url, List<String> tables) throws IOException {
        if (tables.isEmpty()) {
            return;
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            for (String t : tables) {
                s.execute("DROP TABLE " + t);
            }
        } catch (SQLException e) {
            throw new IOException("cannot drop tables " + tables + " from " + url + ": " + e.getMessage(), e);
        }
    }

    public Path costFile() {
        return costs;
    }
}
