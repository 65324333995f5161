package org.phalanx.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
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
import org.phalanx.testkit.db.DatabaseServer;

/**
 * Scenario 1, the cost of the hop: prepared point reads at 1 and 16 clients, straight to the
 * database (pgjdbc, or sqlite-jdbc inside the client JVM) against the same database behind a
 * Phalanx controller with one backend (SingleDB). Targets on PostgreSQL: p50 latency ratio
 * at most 1.5 at 1 client, throughput ratio at least 0.7 at 16 clients. SQLite is reported as
 * the microseconds the hop adds.
 */
public final class HopCost implements Scenario {
    static final List<String> PARAMS = List.of("database", "path");
    private static final DatabaseServer PG = DatabaseServer.POSTGRESQL;

    @Override
    public String id() {
        return "hop-cost";
    }

    @Override
    public String title() {
        return "1. Hop cost: direct JDBC vs Phalanx SingleDB, point reads";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        int rows = ctx.scale(100_000, 1_000);
        PointReads w = new PointReads(rows);
        boolean pg = ctx.postgresUnavailable().isEmpty();
        List<VirtualDatabaseSpec> vdbs = new ArrayList<>();
        String pgUrl = null;
        if (pg) {
            pgUrl = ctx.postgresDatabase();
            try (Connection c = DriverManager.getConnection(pgUrl + "?reWriteBatchedInserts=true", PG.user(),
                    PG.password())) {
                w.load(c);
                try (java.sql.Statement st = c.createStatement()) {
                    st.execute("VACUUM ANALYZE accounts");
                }
            }
            vdbs.add(new VirtualDatabaseSpec("hop_pg", List.of(new BackendSpec("pg", pgUrl, null, PG.user(),
                    PG.password().isEmpty() ? null : PG.password(), 20)),
                    Map.of("replication", "SingleDB", "lockGranularity", "table")));
        }
        Path dir = ctx.work("sqlite");
        Files.createDirectories(dir);
        Path file = dir.resolve("hop.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            w.load(c);
        }
        vdbs.add(new VirtualDatabaseSpec("hop_sqlite", List.of(new BackendSpec("sqlite", "jdbc:sqlite:" + file, null,
                null, null, 20)), Map.of("replication", "SingleDB")));
        BenchController cp = ctx.controller("hop", vdbs);

        // direct SQLite gets the settings the controller gives its SQLite backends
        Endpoint sqliteDirect = Endpoint.direct("jdbc:sqlite:" + file, null, null, false)
                .with("journal_mode", "WAL").with("busy_timeout", "10000").with("date_class", "TEXT");
        Endpoint sqlitePhalanx = Endpoint.phalanx(cp, "hop_sqlite", false, List.of());
        List<Variant> variants = new ArrayList<>();
        for (int clients : new int[] {1, 16}) {
            if (pg) {
                variants.add(variant("pg-direct-" + clients, Endpoint.direct(pgUrl, PG.user(), PG.password(), true),
                        w, clients, "PostgreSQL", "direct"));
                variants.add(variant("pg-phalanx-" + clients, Endpoint.phalanx(cp, "hop_pg", true, List.of()), w, clients,
                        "PostgreSQL", "Phalanx"));
            }
            variants.add(variant("sqlite-direct-" + clients, sqliteDirect, w, clients, "SQLite", "direct"));
            variants.add(variant("sqlite-phalanx-" + clients, sqlitePhalanx, w, clients, "SQLite", "Phalanx"));
        }
        Map<Variant, Summary> r = ctx.alternate(variants);

        s.text("Prepared `" + "SELECT abalance FROM accounts WHERE aid = ?" + "` on a random key of a " + rows
                + "-row pgbench-like table, each client reusing its prepared statement. Direct: pgjdbc to PostgreSQL"
                + " (its default server-side prepare after 5 executions), or sqlite-jdbc in the client JVM on the"
                + " same file. Phalanx: the Phalanx driver to a controller with that one backend (`SingleDB`, pool of"
                + " 20). For reference, pgpool-II measured on this machine (notes/measuring.md): ×3.1 latency at 1"
                + " client, ×0.24 throughput at 16.");
        Tables.variants(s, r.values(), PARAMS);
        Tables.roundsCsv(s, "hop-cost.csv", r.values(), PARAMS);

        CategoryChart latency = Charts.bars("Point read p50 latency, 1 client", "database", "p50 latency (ms)");
        CategoryChart throughput = Charts.bars("Point read throughput, 16 clients", "database", "requests/s");
        List<String> dbs = pg ? List.of("PostgreSQL", "SQLite") : List.of("SQLite");
        for (String path : List.of("direct", "Phalanx")) {
            List<Double> lat = new ArrayList<>();
            List<Double> tput = new ArrayList<>();
            for (String db : dbs) {
                lat.add(find(r, db, path, 1).all().p50() / 1e3);
                tput.add(find(r, db, path, 16).rate());
            }
            latency.addSeries(path, dbs, lat);
            throughput.addSeries(path, dbs, tput);
        }
        s.chart("hop-latency.png", latency);
        s.chart("hop-throughput.png", throughput);

        if (pg) {
            Summary d1 = find(r, "PostgreSQL", "direct", 1);
            Summary p1 = find(r, "PostgreSQL", "Phalanx", 1);
            Summary d16 = find(r, "PostgreSQL", "direct", 16);
            Summary p16 = find(r, "PostgreSQL", "Phalanx", 16);
            double latencyRatio = p1.all().p50() / d1.all().p50();
            double throughputRatio = p16.rate() / d16.rate();
            s.text(String.format(java.util.Locale.ROOT, "PostgreSQL: Phalanx adds %s µs to the median point read at"
                    + " 1 client (%s → %s µs) and costs %s µs of controller CPU per request at 16 clients.",
                    Section.num(p1.all().p50() - d1.all().p50()), Section.num(d1.all().p50()), Section.num(p1.all().p50()),
                    Section.num(p16.median().controllerCpuUs())));
            boolean latencyMet = s.target("PostgreSQL point read, 1 client: p50 latency Phalanx / direct",
                    latencyRatio, "≤", 1.5, "×");
            boolean throughputMet = s.target("PostgreSQL point read, 16 clients: throughput Phalanx / direct",
                    throughputRatio, "≥", 0.7, "×");
            if (!latencyMet || !throughputMet) {
                s.analysis(String.format(java.util.Locale.ROOT, "At 1 client the direct point read takes %s µs at the"
                        + " median (rounds: %s–%s req/s), through Phalanx %s µs: the hop adds %s µs, i.e. one more"
                        + " loopback round trip (client → controller) with its thread wake-ups, and %s µs of controller"
                        + " CPU per request, %s of it in the kernel (socket reads and writes). At 16 clients Phalanx"
                        + " reaches %s req/s against %s direct, with %s µs of controller CPU per request. To see the"
                        + " controller's system calls per request: `strace -f -c -p <controller pid>` during the run.",
                        Section.num(d1.all().p50()), Section.num(d1.minRate()), Section.num(d1.maxRate()),
                        Section.num(p1.all().p50()), Section.num(p1.all().p50() - d1.all().p50()),
                        Section.num(p1.median().controllerCpuUs()),
                        Math.round(100 * p1.median().controllerKernelShare()) + "%", Section.num(p16.rate()),
                        Section.num(d16.rate()), Section.num(p16.median().controllerCpuUs())));
            }
            if (!latencyMet && ctx.profiling()) {
                s.profile("PostgreSQL point read, 1 client: p50 latency Phalanx / direct",
                        ctx.profile(p1.variant(), "hop cost, PostgreSQL, 1 client"));
            }
            if (!throughputMet && ctx.profiling()) {
                s.profile("PostgreSQL point read, 16 clients: throughput Phalanx / direct",
                        ctx.profile(p16.variant(), "hop cost, PostgreSQL, 16 clients"));
            }
        } else {
            s.text("PostgreSQL part skipped: " + ctx.postgresUnavailable().orElse("") + ".");
        }
        Summary sd1 = find(r, "SQLite", "direct", 1);
        Summary sp1 = find(r, "SQLite", "Phalanx", 1);
        Summary sd16 = find(r, "SQLite", "direct", 16);
        Summary sp16 = find(r, "SQLite", "Phalanx", 16);
        s.text(String.format(java.util.Locale.ROOT, "SQLite: the hop adds **%s µs** to the median point read at 1"
                        + " client (%s µs in-process → %s µs through the controller); at 16 clients Phalanx reaches %s"
                        + " of the direct throughput (direct SQLite runs inside the client JVM with no network at all,"
                        + " so this is the whole cost of a network service, not a target).",
                Section.num(sp1.all().p50() - sd1.all().p50()), Section.num(sd1.all().p50()),
                Section.num(sp1.all().p50()), Section.num(sp16.rate() / sd16.rate()) + "×"));
    }

    private static Variant variant(String name, Endpoint e, PointReads w, int clients, String db, String path) {
        return new Variant(name, e, w, clients, Map.of("database", db, "path", path));
    }

    private static Summary find(Map<Variant, Summary> r, String db, String path, int clients) {
        return r.values().stream().filter(x -> x.variant().param("database").equals(db)
                && x.variant().param("path").equals(path) && x.variant().clients() == clients).findFirst().orElseThrow();
    }
}
