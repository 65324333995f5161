package org.phalanx.bench.scenario;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
import org.phalanx.bench.workload.Loader;
import org.phalanx.bench.workload.PointReads;
import org.phalanx.bench.workload.SmallWrites;
import org.phalanx.bench.workload.Workload;
import org.phalanx.testkit.db.DatabaseServer;

/**
 * Direct PostgreSQL against Phalanx with one and two PostgreSQL backends (issue 17): prepared
 * point SELECTs and auto-commit single-row UPDATEs on a pgbench-like {@code accounts} table, at
 * 1 client (latency) and 16 clients (throughput), through pgjdbc straight to the server
 * ("direct") and through the Phalanx driver to a controller process whose virtual database has
 * one backend ("Phalanx 1") or two ("Phalanx 2": RAIDb-1, default wait policy, least-pending
 * balancing), both with key-level write conflicts. Every path has databases of its own on the same local server, loaded alike.
 * PostgreSQL only: without the server the scenario is skipped (or fails under
 * PHALANX_REQUIRE_SERVERS=1).
 */
public final class DirectVsPhalanx implements Scenario {
    static final List<String> PARAMS = List.of("request", "path");
    static final int[] CLIENTS = {1, 16};
    /** More connections than clients, so that the pool never holds a request back. */
    static final int POOL = 20;
    static final String SELECT = "point SELECT";
    static final String UPDATE = "single-row UPDATE";
    static final String DIRECT = "direct";
    static final String ONE = "Phalanx 1";
    static final String TWO = "Phalanx 2";
    static final List<String> PATHS = List.of(DIRECT, ONE, TWO);
    /** How the section starts without a server (BenchSmokeTest accepts such a section without a CSV). */
    public static final String SKIPPED = "Skipped, no PostgreSQL server: ";
    private static final DatabaseServer PG = DatabaseServer.POSTGRESQL;

    @Override
    public String id() {
        return "direct-vs-phalanx";
    }

    @Override
    public String title() {
        return "12. Direct PostgreSQL vs Phalanx with one and two PostgreSQL backends: point SELECT and single-row"
                + " UPDATE";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        Optional<String> problem = ctx.postgresUnavailable(); // throws under PHALANX_REQUIRE_SERVERS=1
        if (problem.isPresent()) {
            s.text(SKIPPED + problem.get() + ". This scenario compares PostgreSQL paths only (see bench/README.md"
                    + " for the server it expects).");
            return;
        }
        int rows = ctx.scale(100_000, 1_000);
        String prefix = DatabaseServer.perProcess("phalanx_bench") + "_dvp_";
        List<String> created = new ArrayList<>();
        BenchController cp = null;
        try {
            String direct = database(prefix + "direct", rows, created);
            String one = database(prefix + "one", rows, created);
            String twoA = database(prefix + "two_a", rows, created);
            String twoB = database(prefix + "two_b", rows, created);
            cp = ctx.controller("dvp", List.of(vdb("dvp_one", List.of(backend("pg1", one))),
                    vdb("dvp_two", List.of(backend("pg1", twoA), backend("pg2", twoB)))));

            Map<String, Endpoint> endpoints = Map.of(DIRECT, Endpoint.direct(direct, PG.user(), PG.password(), true),
                    ONE, Endpoint.phalanx(cp, "dvp_one", true, List.of()),
                    TWO, Endpoint.phalanx(cp, "dvp_two", true, List.of()));
            List<Variant> variants = new ArrayList<>();
            for (String request : List.of(SELECT, UPDATE)) {
                Workload w = request.equals(SELECT) ? new PointReads(rows) : new SmallWrites(rows);
                for (int clients : CLIENTS) {
                    for (String path : PATHS) {
                        String name = (request.equals(SELECT) ? "select-" : "update-")
                                + path.toLowerCase(Locale.ROOT).replace(' ', '-') + "-" + clients;
                        variants.add(new Variant(name, endpoints.get(path), w, clients,
                                Map.of("request", request, "path", path)));
                    }
                }
            }
            Map<Variant, Summary> r = ctx.alternate(variants);
            report(ctx, s, r, rows);
        } finally {
            if (cp != null) {
                cp.close(); // before the databases go: no session of the controller left on them
            }
            for (String name : created) {
                PG.drop(name);
            }
        }
    }

    private void report(BenchContext ctx, Section s, Map<Variant, Summary> r, int rows) throws Exception {
        s.text("Prepared `SELECT abalance FROM accounts WHERE aid = ?` and auto-commit `UPDATE accounts SET abalance"
                + " = abalance + ? WHERE aid = ?`, each on a random key of a " + rows + "-row pgbench-like table"
                + " (`aid integer primary key, bid, abalance, filler char(84)`), each client reusing its prepared"
                + " statement over its own connection, at 1 client (latency) and 16 clients (throughput). **direct**:"
                + " pgjdbc straight to PostgreSQL (its default server-side prepare after 5 executions). **Phalanx"
                + " 1**: the Phalanx driver to a controller process (its own JVM) whose virtual database has one"
                + " PostgreSQL backend. **Phalanx 2**: the same controller, a virtual database with two PostgreSQL"
                + " backends (`RAIDb-1`, default `waitPolicy` (`first`), `balancing=\"least-pending\"`), so every"
                + " UPDATE runs on both backends and the client"
                + " is answered after the first, and each SELECT goes to the backend with fewer requests in"
                + " progress. Both Phalanx virtual databases have `lockGranularity=\"key\"`: UPDATEs of different"
                + " rows run in parallel (per table, every UPDATE of `accounts` would wait for the one before it)."
                + " Pools of " + POOL + " connections per backend, no recovery log, no cache. Each path has"
                + " databases of its own with the same data, all on the one local server (`fsync` and"
                + " `synchronous_commit` on): Phalanx 2's two backends share that server's cores and disk, so its"
                + " second copy of every UPDATE costs the same machine as the first — this measures the price of"
                + " replication, not scale-out. PostgreSQL CPU is that of every `postgres` process on the machine.");
        s.text(pgpool());
        Tables.variants(s, r.values(), PARAMS);
        Tables.roundsCsv(s, "direct-vs-phalanx.csv", r.values(), PARAMS);

        // the four figures, each Phalanx path with its ratio to direct
        List<List<String>> summary = new ArrayList<>();
        for (String request : List.of(SELECT, UPDATE)) {
            for (int clients : CLIENTS) {
                boolean latency = clients == 1;
                List<String> row = new ArrayList<>();
                row.add(request + ", " + clients + (clients == 1 ? " client: p50" : " clients: req/s"));
                double base = figure(find(r, request, DIRECT, clients), latency);
                for (String path : PATHS) {
                    double v = figure(find(r, request, path, clients), latency);
                    String text = latency ? Section.num(v) + " µs" : Section.num(v) + " req/s";
                    row.add(path.equals(DIRECT) ? text : text + " (" + x(v / base) + ")");
                }
                summary.add(row);
            }
        }
        s.text("**Summary** (medians over the rounds; in brackets the ratio to direct):");
        s.table(List.of("measure", DIRECT, ONE, TWO), summary);
        List<String> tails = new ArrayList<>();
        for (String request : List.of(SELECT, UPDATE)) {
            List<String> p = new ArrayList<>();
            for (String path : PATHS) {
                p.add(path + " " + Section.num(find(r, request, path, 1).all().p99()) + " µs");
            }
            tails.add(request + ": " + String.join(", ", p));
        }
        s.text("p99 at 1 client — " + String.join("; ", tails) + ".");

        List<List<String>> cpu = new ArrayList<>();
        for (String request : List.of(SELECT, UPDATE)) {
            for (int clients : CLIENTS) {
                for (String path : PATHS) {
                    var m = find(r, request, path, clients).median();
                    double ctl = path.equals(DIRECT) ? 0 : m.controllerCpuUs();
                    cpu.add(List.of(request, Integer.toString(clients), path, Section.num(m.clientCpuUs()),
                            path.equals(DIRECT) ? "–" : Section.num(m.controllerCpuUs()), Section.num(m.databaseCpuUs()),
                            Section.num(m.clientCpuUs() + ctl + m.databaseCpuUs())));
                }
            }
        }
        s.text("CPU time per request by process (µs, medians over the rounds):");
        s.table(List.of("request", "clients", "path", "client JVM", "controller", "PostgreSQL", "total"), cpu);

        CategoryChart latency = Charts.bars("p50 latency, 1 client", "request", "p50 latency (µs)");
        CategoryChart throughput = Charts.bars("Throughput, 16 clients", "request", "requests/s");
        List<String> requests = List.of(SELECT, UPDATE);
        for (String path : PATHS) {
            latency.addSeries(path, requests, requests.stream().map(q -> find(r, q, path, 1).all().p50()).toList());
            throughput.addSeries(path, requests, requests.stream().map(q -> find(r, q, path, CLIENTS[1]).rate())
                    .toList());
        }
        s.chart("direct-vs-phalanx-latency.png", latency);
        s.chart("direct-vs-phalanx-throughput.png", throughput);

        targets(ctx, s, r);
    }

    private static void targets(BenchContext ctx, Section s, Map<Variant, Summary> r) throws Exception {
        int n = CLIENTS[1];
        Summary upd1Direct = find(r, UPDATE, DIRECT, 1);
        Summary upd1One = find(r, UPDATE, ONE, 1);
        Summary updDirect = find(r, UPDATE, DIRECT, n);
        Summary updOne = find(r, UPDATE, ONE, n);
        Summary updTwo = find(r, UPDATE, TWO, n);
        Summary selDirect = find(r, SELECT, DIRECT, n);
        Summary selOne = find(r, SELECT, ONE, n);
        List<String> missed = new ArrayList<>();
        check(ctx, s, missed, "single-row UPDATE, " + n + " clients: throughput Phalanx 1 / direct",
                updOne.rate() / updDirect.rate(), "≥", 0.6, updOne);
        check(ctx, s, missed, "single-row UPDATE, " + n + " clients: throughput Phalanx 2 / direct",
                updTwo.rate() / updDirect.rate(), "≥", 0.4, updTwo);
        check(ctx, s, missed, "single-row UPDATE, 1 client: p50 latency Phalanx 1 / direct",
                upd1One.all().p50() / upd1Direct.all().p50(), "≤", 1.35, upd1One);
        check(ctx, s, missed, "point SELECT, " + n + " clients: throughput Phalanx 1 / direct",
                selOne.rate() / selDirect.rate(), "≥", 0.75, selOne);
        if (!missed.isEmpty()) {
            List<String> lines = new ArrayList<>();
            for (String request : List.of(SELECT, UPDATE)) {
                for (int clients : CLIENTS) {
                    for (String path : List.of(ONE, TWO)) {
                        Summary d = find(r, request, DIRECT, clients);
                        Summary p = find(r, request, path, clients);
                        lines.add(String.format(Locale.ROOT, "- %s, %d client(s), %s: %s req/s against %s direct,"
                                        + " p50 %s µs against %s µs; CPU per request: controller %s µs (%s in the"
                                        + " kernel), client %s µs against %s, PostgreSQL %s µs against %s.", request,
                                clients, path, Section.num(p.rate()), Section.num(d.rate()), Section.num(p.all().p50()),
                                Section.num(d.all().p50()), Section.num(p.median().controllerCpuUs()),
                                Math.round(100 * p.median().controllerKernelShare()) + "%",
                                Section.num(p.median().clientCpuUs()), Section.num(d.median().clientCpuUs()),
                                Section.num(p.median().databaseCpuUs()), Section.num(d.median().databaseCpuUs())));
                    }
                }
            }
            s.analysis("Missed: " + String.join("; ", missed) + ". The figures behind them (medians over the"
                    + " rounds):\n\n" + String.join("\n", lines) + "\n\nThe controller runs on the same cores as"
                    + " the clients and PostgreSQL, so its CPU per request comes out of the server's throughput at"
                    + " " + n + " clients; at 1 client the hop adds a loopback round trip and its thread wake-ups.");
        }
    }

    private static void check(BenchContext ctx, Section s, List<String> missed, String name, double value, String op,
                              double threshold, Summary variant) throws Exception {
        if (!s.target(name, value, op, threshold, "×")) {
            missed.add(name + " " + x(value) + " (target " + op + " " + Section.num(threshold) + "×)");
            if (ctx.profiling()) {
                s.profile(name, ctx.profile(variant.variant(), "direct vs Phalanx, " + variant.variant().name()));
            }
        }
    }

    /** pgpool-II is not measured; the section says whether it is even installed. */
    private static String pgpool() {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, "pgpool");
                if (Files.isExecutable(p)) {
                    return "pgpool-II (`" + p + "`) is installed on this machine but this scenario does not measure"
                            + " it (no pgpool column).";
                }
            }
        }
        return "pgpool-II is not installed on this machine (no `pgpool` on the PATH), so there is no pgpool column;"
                + " the hop-cost section quotes an earlier pgpool-II measurement for point reads.";
    }

    private static double figure(Summary x, boolean latency) {
        return latency ? x.all().p50() : x.rate();
    }

    private static String x(double ratio) {
        return String.format(Locale.ROOT, "%.2f×", ratio);
    }

    private static Summary find(Map<Variant, Summary> r, String request, String path, int clients) {
        return r.values().stream().filter(v -> v.variant().param("request").equals(request)
                && v.variant().param("path").equals(path) && v.variant().clients() == clients).findFirst().orElseThrow();
    }

    private static VirtualDatabaseSpec vdb(String name, List<BackendSpec> backends) {
        return new VirtualDatabaseSpec(name, backends, Map.of("replication", "RAIDb-1", "balancing", "least-pending",
                "lockGranularity", "key"));
    }

    private static BackendSpec backend(String name, String url) {
        return new BackendSpec(name, url, null, PG.user(), PG.password().isEmpty() ? null : PG.password(), POOL);
    }

    /** A database of its own on the server with the accounts table, recorded for the drop at the end. */
    private static String database(String name, int rows, List<String> created) throws SQLException {
        created.add(name);
        String url = PG.create(name);
        try (Connection c = DriverManager.getConnection(url + "?reWriteBatchedInserts=true", PG.user(), PG.password())) {
            // pgbench's accounts table (filler char(84)), not the portable varchar of PointReads.loadAccounts
            Loader.ddl(c, "DROP TABLE IF EXISTS accounts", "CREATE TABLE accounts (aid INTEGER PRIMARY KEY,"
                    + " bid INTEGER NOT NULL, abalance INTEGER NOT NULL, filler CHAR(84))");
            String filler = " ".repeat(84);
            Loader.insert(c, "INSERT INTO accounts (aid, bid, abalance, filler) VALUES (?, ?, ?, ?)", rows, (ps, i) -> {
                ps.setInt(1, i);
                ps.setInt(2, 1 + (i - 1) / 100_000);
                ps.setInt(3, 0);
                ps.setString(4, filler);
            });
            try (Statement st = c.createStatement()) {
                st.execute("VACUUM ANALYZE accounts");
            }
        }
        return url;
    }
}
