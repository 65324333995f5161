package org.phalanx.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.style.Styler;
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
import org.phalanx.testkit.db.DatabaseServer;

/**
 * The cost of agreement on a mixed-engine virtual database (issue 15): on a vdb whose backends
 * run different engines every auto-commit write runs on each backend as a short transaction and
 * commits only once the backends' outcomes agree, so under {@code first} the client waits for
 * the slowest engine instead of the fastest. Small auto-commit updates by primary key, and point
 * reads as the control (reads do not wait), at 1 client (latency) and 8 clients (throughput),
 * on A a vdb of SQLite + PostgreSQL + MariaDB and B, C, D vdbs of each engine alone, all with
 * {@code waitPolicy="first"}; E is direct pgjdbc for reference. No target: the cost is reported
 * as A against the slowest and the fastest single engine.
 */
public final class MixedAgreement implements Scenario {
    static final List<String> PARAMS = List.of("request", "vdb", "write agreement");
    static final int[] CLIENTS = {1, 8};
    /** More connections than clients: agreed writes in flight are bounded by the smallest pool. */
    static final int POOL = 10;
    static final String MIXED = "mixed";

    /** One virtual database compared (or the direct reference): its label and how to reach it. */
    private record Target(String key, String label, String agreement, boolean postgres) {
    }

    @Override
    public String id() {
        return "mixed-agreement";
    }

    @Override
    public String title() {
        return "10. Mixed-engine agreement: what waiting for the slowest engine costs a write";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        int rows = ctx.scale(100_000, 1_000);
        PointReads reads = new PointReads(rows);
        SmallWrites writes = new SmallWrites(rows);
        String prefix = DatabaseServer.perProcess("phalanx_bench") + "_agree_";
        List<String> notes = new ArrayList<>();
        List<Runnable> cleanup = new ArrayList<>();
        BenchController cp = null;
        try {
            boolean pg = ctx.postgresUnavailable().isEmpty();
            if (!pg) {
                notes.add("PostgreSQL is not available: " + ctx.postgresUnavailable().get() + ".");
            }
            Optional<String> mariaProblem = DatabaseServer.MARIADB.unavailable();
            if (mariaProblem.isPresent()) {
                if (DatabaseServer.required()) {
                    throw new IllegalStateException(mariaProblem.get() + " and " + BenchContext.REQUIRE_SERVERS + "=1");
                }
                System.out.println("[" + id() + "] skipping the MariaDB part: " + mariaProblem.get());
                notes.add("MariaDB is not available: " + mariaProblem.get() + ".");
            }
            boolean maria = mariaProblem.isEmpty();

            // every vdb gets databases of its own, loaded alike: no vdb writes where another reads
            Path dir = sqliteFolder(ctx, prefix, cleanup);
            notes.add("The SQLite files are on " + Files.getFileStore(dir).type() + " (`" + dir + "`), each commit"
                    + " synced as the servers sync theirs; on tmpfs (the usual scratch folder, /dev/shm) SQLite's"
                    + " fsync would cost nothing and make it look faster than a durable SQLite is.");
            List<BackendSpec> mixed = new ArrayList<>();
            List<VirtualDatabaseSpec> vdbs = new ArrayList<>();
            List<Target> targets = new ArrayList<>();
            String pgAloneUrl = null;
            mixed.add(sqlite(dir.resolve("mixed.db"), rows));
            if (pg) {
                mixed.add(server(DatabaseServer.POSTGRESQL, prefix + "mixed", rows, cleanup));
                pgAloneUrl = server(DatabaseServer.POSTGRESQL, prefix + "alone", rows, cleanup).url();
            }
            if (maria) {
                mixed.add(server(DatabaseServer.MARIADB, prefix + "mixed", rows, cleanup));
            }
            String mixedLabel = String.join("+", mixed.stream().map(b -> product(b.name())).toList());
            if (mixed.size() > 1) {
                vdbs.add(vdb("agree_mixed", mixed));
                targets.add(new Target(MIXED, mixedLabel, "yes", pg));
            } else {
                notes.add("No database server: the mixed virtual database (A) is not measured.");
            }
            if (pg) {
                vdbs.add(vdb("agree_pg", List.of(backend("pg", pgAloneUrl, DatabaseServer.POSTGRESQL))));
                targets.add(new Target("pg", "PostgreSQL", "no", true));
            }
            if (maria) {
                vdbs.add(vdb("agree_maria", List.of(server(DatabaseServer.MARIADB, prefix + "alone", rows, cleanup))));
                targets.add(new Target("maria", "MariaDB", "no", false));
            }
            vdbs.add(vdb("agree_sqlite", List.of(sqlite(dir.resolve("alone.db"), rows))));
            targets.add(new Target("sqlite", "SQLite", "no", false));
            if (pg) {
                targets.add(new Target("pg-direct", "PostgreSQL direct (pgjdbc)", "–", true));
            }
            cp = ctx.controller("agree", vdbs);

            List<Variant> variants = new ArrayList<>();
            for (Workload w : List.of(writes, reads)) {
                String request = w == writes ? "update" : "point read";
                for (int clients : CLIENTS) {
                    for (Target t : targets) {
                        Endpoint e = t.key().equals("pg-direct")
                                ? Endpoint.direct(pgAloneUrl, DatabaseServer.POSTGRESQL.user(),
                                        DatabaseServer.POSTGRESQL.password(), true)
                                : Endpoint.phalanx(cp, "agree_" + t.key(), t.postgres(), List.of());
                        String name = (w == writes ? "upd-" : "read-") + t.key() + "-" + clients;
                        variants.add(new Variant(name, e, w, clients,
                                Map.of("request", request, "vdb", t.label(), "write agreement", t.agreement())));
                    }
                }
            }
            Map<Variant, Summary> r = ctx.alternate(variants);
            report(s, r, targets, rows, mixedLabel, notes);
        } finally {
            if (cp != null) {
                cp.close(); // before the databases go: MariaDB waits for open sessions' locks
            }
            for (Runnable c : cleanup) {
                c.run();
            }
        }
    }

    private void report(Section s, Map<Variant, Summary> r, List<Target> targets, int rows, String mixedLabel,
                        List<String> notes) throws Exception {
        s.text("Prepared auto-commit `UPDATE accounts SET abalance = abalance + ? WHERE aid = ?` and, as the control,"
                + " prepared `SELECT abalance FROM accounts WHERE aid = ?`, on random keys of a " + rows + "-row"
                + " pgbench-like table, at 1 client (latency) and " + CLIENTS[1] + " clients (throughput). Virtual"
                + " databases, all `RAIDb-1`, `waitPolicy=\"first\"`, default `lockGranularity` (`auto`: the whole"
                + " database when a backend is SQLite, else per table), no recovery log, pools of " + POOL + ": **A**"
                + " " + mixedLabel + " (mixed engines: agreement on), **B** PostgreSQL alone, **C** MariaDB alone,"
                + " **D** SQLite alone (one engine: no agreement, the first answer stands), and **E** direct pgjdbc"
                + " to PostgreSQL for reference. Every vdb has databases of its own with the same data, on the local"
                + " servers (PostgreSQL `fsync` and `synchronous_commit` on; MariaDB InnoDB with"
                + " `innodb_flush_log_at_trx_commit=1`; SQLite in WAL mode with its default `synchronous=FULL`):"
                + " every engine syncs each commit. PostgreSQL CPU is measured; MariaDB's (`mariadbd`)"
                + " counts in \"other load\" for A and C.");
        for (String n : notes) {
            s.text(n);
        }
        Tables.variants(s, r.values(), PARAMS);
        Tables.roundsCsv(s, "mixed-agreement.csv", r.values(), PARAMS);

        // per vdb: the four figures side by side
        List<List<String>> side = new ArrayList<>();
        for (Target t : targets) {
            side.add(List.of(t.label(), t.agreement(), ms(find(r, "update", t, 1).all().p50()),
                    ms(find(r, "point read", t, 1).all().p50()), Section.num(find(r, "update", t, CLIENTS[1]).rate()),
                    Section.num(find(r, "point read", t, CLIENTS[1]).rate())));
        }
        s.text("Side by side (medians over the rounds):");
        s.table(List.of("vdb", "write agreement", "update p50 ms, 1 client", "read p50 ms, 1 client",
                "update req/s, " + CLIENTS[1] + " clients", "read req/s, " + CLIENTS[1] + " clients"), side);

        CategoryChart latency = Charts.bars("p50 latency, 1 client", "virtual database", "p50 latency (ms)");
        CategoryChart throughput = Charts.bars("Throughput, " + CLIENTS[1] + " clients", "virtual database",
                "requests/s");
        List<String> labels = targets.stream().map(MixedAgreement::shortLabel).toList();
        for (String request : List.of("update", "point read")) {
            latency.addSeries(request, labels, targets.stream().map(t -> find(r, request, t, 1).all().p50() / 1e3)
                    .toList());
            throughput.addSeries(request, labels, targets.stream().map(t -> find(r, request, t, CLIENTS[1]).rate())
                    .toList());
        }
        // the mixed vdb's latency bar is the tallest and comes first: that legend goes right
        latency.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        s.chart("mixed-agreement-latency.png", latency);
        s.chart("mixed-agreement-throughput.png", throughput);

        Target mixed = targets.stream().filter(t -> t.key().equals(MIXED)).findFirst().orElse(null);
        List<Target> single = targets.stream().filter(t -> t.agreement().equals("no")).toList();
        if (mixed == null || single.size() < 2) {
            s.text("The ratios need the mixed vdb and at least two single-engine ones: not computed in this run.");
        } else {
            ratios(s, r, mixed, single);
        }
        s.text("**What waits, and why.** On a virtual database whose backends run more than one engine, the same"
                + " statement can have different outcomes (SQLite divides by zero to NULL where PostgreSQL and MariaDB"
                + " raise 22012; engines differ on type checks and constraints), so the first answer cannot stand for"
                + " all: **every auto-commit write** (INSERT, UPDATE, DELETE, DDL) runs on each backend inside a short"
                + " transaction, each backend votes with its outcome once the statement has run there and commits"
                + " only when the outcomes agree (a backend on the losing side rolls back instead of being"
                + " disabled); the client is answered, per the wait policy, by the commits of the backends that"
                + " agreed. **Every write inside a transaction** waits for all backends (so a transaction whose"
                + " branch applied what the others refused can be rolled back everywhere). **Reads do not wait**:"
                + " a read goes to one backend as on any vdb (a read that one engine refuses is retried on another"
                + " engine). The price is paid on writes only: under `first` a write is answered after the slowest"
                + " engine has executed it, plus the vote and a commit, instead of after the fastest engine's"
                + " commit. Each backend's part also costs more than an auto-commit write: an explicit commit (one more"
                + " round trip on PostgreSQL, whose BEGIN travels with the statement) and, on MariaDB, one round trip"
                + " for each `setAutoCommit` around it (`SET autocommit=0`, then `=1`); and the controller does the"
                + " work once per backend (its CPU per request above). Each backend holds the write's locks (on"
                + " SQLite: the whole database file) until the slowest has voted, and since a backend applies"
                + " conflicting writes one after another, the"
                + " backends advance in lock step at the pace of the slowest. On a vdb of one engine, `first`"
                + " answers with the first backend's outcome and the others are judged when they finish.");
    }

    /** A against the slowest and the fastest single engine, for latency at 1 client and throughput at N. */
    private static void ratios(Section s, Map<Variant, Summary> r, Target mixed, List<Target> single) {
        List<List<String>> rows = new ArrayList<>();
        String[] summary = new String[2];
        int i = 0;
        for (String request : List.of("update", "point read")) {
            double a = find(r, request, mixed, 1).all().p50();
            Target slow = single.stream().max((x, y) -> Double.compare(find(r, request, x, 1).all().p50(),
                    find(r, request, y, 1).all().p50())).orElseThrow();
            Target fast = single.stream().min((x, y) -> Double.compare(find(r, request, x, 1).all().p50(),
                    find(r, request, y, 1).all().p50())).orElseThrow();
            double slowP50 = find(r, request, slow, 1).all().p50();
            double fastP50 = find(r, request, fast, 1).all().p50();
            rows.add(List.of(request, "p50 latency, 1 client", ms(a), ms(slowP50) + " (" + slow.label() + ")",
                    ms(fastP50) + " (" + fast.label() + ")", x(a / slowP50), x(a / fastP50),
                    Section.num(a - slowP50) + " µs"));
            double at = find(r, request, mixed, CLIENTS[1]).rate();
            Target low = single.stream().min((x, y) -> Double.compare(find(r, request, x, CLIENTS[1]).rate(),
                    find(r, request, y, CLIENTS[1]).rate())).orElseThrow();
            Target high = single.stream().max((x, y) -> Double.compare(find(r, request, x, CLIENTS[1]).rate(),
                    find(r, request, y, CLIENTS[1]).rate())).orElseThrow();
            double lowRate = find(r, request, low, CLIENTS[1]).rate();
            double highRate = find(r, request, high, CLIENTS[1]).rate();
            rows.add(List.of(request, "req/s, " + CLIENTS[1] + " clients", Section.num(at),
                    Section.num(lowRate) + " (" + low.label() + ")", Section.num(highRate) + " (" + high.label() + ")",
                    x(at / lowRate), x(at / highRate), "–"));
            summary[i++] = String.format(Locale.ROOT, "%s p50 %s ms is %s the slowest engine alone (%s, %s ms) and"
                            + " %s the fastest (%s, %s ms); at %d clients %s req/s is %s the slowest engine's"
                            + " throughput (%s) and %s the fastest's (%s)", request, ms(a), x(a / slowP50),
                    slow.label(), ms(slowP50), x(a / fastP50), fast.label(), ms(fastP50), CLIENTS[1], Section.num(at),
                    x(at / lowRate), low.label(), x(at / highRate), high.label());
        }
        s.text("**Ratios** (A = " + mixed.label() + " against the single-engine vdbs; for latency, \"slowest\" is"
                + " max(B, C, D), what agreement makes a write wait for, and \"fastest\" min(B, C, D), about where"
                + " `first` would answer without it; for throughput, the lowest and highest of B, C, D):");
        s.table(List.of("request", "figure", "A (mixed)", "slowest single engine", "fastest single engine",
                "A / slowest", "A / fastest", "A − slowest"), rows);
        s.text("Update (agreement on): " + summary[0] + ". Point read (control, no agreement): " + summary[1] + ".");
    }

    private static String ms(double us) {
        return Section.num(us / 1e3);
    }

    private static String x(double ratio) {
        return Section.num(ratio) + "×";
    }

    private static String shortLabel(Target t) {
        return switch (t.key()) {
            case MIXED -> "A mixed";
            case "pg" -> "B PostgreSQL";
            case "maria" -> "C MariaDB";
            case "sqlite" -> "D SQLite";
            default -> "E PG direct";
        };
    }

    private static String product(String backend) {
        return switch (backend) {
            case "pg" -> "PostgreSQL";
            case "maria" -> "MariaDB";
            default -> "SQLite";
        };
    }

    private static Summary find(Map<Variant, Summary> r, String request, Target t, int clients) {
        return r.values().stream().filter(x -> x.variant().param("request").equals(request)
                && x.variant().param("vdb").equals(t.label()) && x.variant().clients() == clients).findFirst()
                .orElseThrow();
    }

    /**
     * Where the SQLite files go: the scratch folder, unless it is on tmpfs, where fsync is free and
     * SQLite would be compared, not durable, with durable servers; then the JVM's temporary folder.
     */
    static Path sqliteFolder(BenchContext ctx, String prefix, List<Runnable> cleanup) throws Exception {
        Path dir = ctx.work("sqlite");
        Files.createDirectories(dir);
        if (!Files.getFileStore(dir).type().equals("tmpfs")) {
            return dir;
        }
        Path disk = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().resolve(prefix + "sqlite");
        Files.createDirectories(disk);
        cleanup.add(() -> {
            try (var files = Files.list(disk)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
                Files.deleteIfExists(disk);
            } catch (java.io.IOException e) {
                System.err.println("could not delete " + disk + ": " + e.getMessage());
            }
        });
        return disk;
    }

    static VirtualDatabaseSpec vdb(String name, List<BackendSpec> backends) {
        return new VirtualDatabaseSpec(name, backends, Map.of("replication", "RAIDb-1", "waitPolicy", "first"));
    }

    /** A SQLite file with the accounts table, as a backend named "lite". */
    static BackendSpec sqlite(Path file, int rows) throws Exception {
        Files.deleteIfExists(file);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            PointReads.loadAccounts(c, rows);
        }
        return new BackendSpec("lite", "jdbc:sqlite:" + file, null, null, null, POOL);
    }

    /** A database of its own on the server, with the accounts table, dropped at the end. */
    static BackendSpec server(DatabaseServer server, String name, int rows, List<Runnable> cleanup)
            throws Exception {
        String url = server.create(name);
        cleanup.add(() -> server.drop(name));
        boolean pg = server == DatabaseServer.POSTGRESQL;
        try (Connection c = DriverManager.getConnection(url + (pg ? "?reWriteBatchedInserts=true" : ""), server.user(),
                server.password())) {
            PointReads.loadAccounts(c, rows);
            try (Statement st = c.createStatement()) {
                st.execute(pg ? "VACUUM ANALYZE accounts" : "ANALYZE TABLE accounts");
            }
        }
        return backend(pg ? "pg" : "maria", url, server);
    }

    static BackendSpec backend(String name, String url, DatabaseServer server) {
        return new BackendSpec(name, url, null, server.user(), server.password().isEmpty() ? null : server.password(),
                POOL);
    }
}
