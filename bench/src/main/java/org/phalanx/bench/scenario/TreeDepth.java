package org.phalanx.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.phalanx.bench.cluster.BackendSpec;
import org.phalanx.bench.cluster.BenchController;
import org.phalanx.bench.cluster.VirtualDatabaseSpec;
import org.phalanx.bench.harness.BenchContext;
import org.phalanx.bench.harness.Endpoint;
import org.phalanx.bench.harness.Scenario;
import org.phalanx.bench.harness.Summary;
import org.phalanx.bench.harness.Tables;
import org.phalanx.bench.harness.Variant;
import org.phalanx.bench.report.Charts;
import org.phalanx.bench.report.Section;
import org.phalanx.bench.workload.PointReads;
import org.phalanx.bench.workload.SmallWrites;
import org.phalanx.bench.workload.Workload;

/**
 * Nested controllers: what each level of a tree of controllers adds to a request. A chain of
 * controller processes over one SQLite file — level 1 hosts {@code tree1} over the file, level
 * k hosts {@code treek} whose only backend is level k-1's virtual database, reached with the
 * Phalanx driver — and one client entering at depth 0 (sqlite-jdbc on the file, in the client
 * JVM), 1, 2 or 3. Prepared point reads and small auto-commit updates, 1 client: the median
 * latency at depth k minus that at depth k-1 is what level k adds. No target: a measurement.
 */
public final class TreeDepth implements Scenario {
    static final int DEPTH = 3;
    static final List<String> PARAMS = List.of("request", "depth");

    @Override
    public String id() {
        return "tree-depth";
    }

    @Override
    public String title() {
        return "9. Nested controllers: added latency per tree level";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        int rows = ctx.scale(100_000, 1_000);
        PointReads reads = new PointReads(rows);
        SmallWrites writes = new SmallWrites(rows);
        Path dir = ctx.work("sqlite");
        Files.createDirectories(dir);
        Path file = dir.resolve("tree.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            reads.load(c); // the same accounts table serves both workloads
        }
        List<Endpoint> entries = new ArrayList<>();
        // direct SQLite gets the settings the controller gives its SQLite backends
        entries.add(Endpoint.direct("jdbc:sqlite:" + file, null, null, false)
                .with("journal_mode", "WAL").with("busy_timeout", "10000").with("date_class", "TEXT"));
        String backendUrl = "jdbc:sqlite:" + file;
        String driver = null;
        for (int level = 1; level <= DEPTH; level++) {
            String vdb = "tree" + level;
            BackendSpec backend = level == 1
                    ? new BackendSpec("leaf", backendUrl, null, null, null, 4)
                    : new BackendSpec("level" + (level - 1), backendUrl, driver, BenchController.USER,
                            BenchController.PASSWORD, 4);
            BenchController cp = ctx.controller("level" + level,
                    List.of(new VirtualDatabaseSpec(vdb, List.of(backend), Map.of("replication", "SingleDB"))));
            entries.add(Endpoint.phalanx(cp, vdb, false, List.of()));
            backendUrl = cp.url(vdb);
            driver = "org.phalanx.driver.Driver";
        }
        List<Variant> variants = new ArrayList<>();
        for (Workload w : List.of(reads, writes)) {
            String request = w == reads ? "point read" : "small write";
            for (int depth = 0; depth <= DEPTH; depth++) {
                variants.add(new Variant((w == reads ? "read" : "write") + "-depth" + depth, entries.get(depth), w, 1,
                        Map.of("request", request, "depth", depth)));
            }
        }
        Map<Variant, Summary> r = ctx.alternate(variants);

        s.text("A chain of " + DEPTH + " controller processes over one SQLite file (" + rows + " accounts): level 1"
                + " hosts a SingleDB virtual database over the file, level k one whose only backend is level k-1's"
                + " virtual database through the Phalanx driver. One client enters at depth 0 (sqlite-jdbc on the file"
                + " inside the client JVM: no controller), 1, 2 or 3 and runs prepared point reads (`SELECT abalance"
                + " FROM accounts WHERE aid = ?`) or small auto-commit updates (`UPDATE accounts SET abalance ="
                + " abalance + ? WHERE aid = ?`). Controller CPU is that of the entry controller only.");
        Tables.variants(s, r.values(), PARAMS);
        Tables.roundsCsv(s, "tree-depth.csv", r.values(), PARAMS);

        List<List<String>> added = new ArrayList<>();
        CategoryChart chart = Charts.bars("Median latency by tree depth, 1 client", "depth", "p50 latency (ms)");
        List<String> depths = new ArrayList<>();
        for (int depth = 0; depth <= DEPTH; depth++) {
            depths.add(Integer.toString(depth));
        }
        for (String request : List.of("point read", "small write")) {
            List<Double> p50 = new ArrayList<>();
            for (int depth = 0; depth <= DEPTH; depth++) {
                p50.add(find(r, request, depth).all().p50());
            }
            chart.addSeries(request, depths, p50.stream().map(us -> us / 1e3).toList());
            List<String> row = new ArrayList<>(List.of(request));
            for (int depth = 1; depth <= DEPTH; depth++) {
                row.add(Section.num(p50.get(depth) - p50.get(depth - 1)));
            }
            row.add(Section.num((p50.get(DEPTH) - p50.get(1)) / (DEPTH - 1)));
            added.add(row);
        }
        s.chart("tree-depth.png", chart);
        s.text("Added median latency per level (µs): level 1 is the first controller (against SQLite in the client"
                + " JVM, so the whole cost of a network service), levels 2 and 3 each a further controller in the tree.");
        List<String> header = new ArrayList<>(List.of("request"));
        for (int level = 1; level <= DEPTH; level++) {
            header.add("level " + level + " adds µs");
        }
        header.add("per nested level (mean of 2.." + DEPTH + ") µs");
        s.table(header, added);
        s.text(String.format(Locale.ROOT, "Each nested level adds about **%s µs** to a point read and **%s µs** to a"
                        + " small write at the median.", added.get(0).get(DEPTH + 1), added.get(1).get(DEPTH + 1)));
    }

    private static Summary find(Map<Variant, Summary> r, String request, int depth) {
        return r.values().stream().filter(x -> x.variant().param("request").equals(request)
                && x.variant().param("depth").equals(depth)).findFirst().orElseThrow();
    }
}
