package org.phalanx.bench.scenario;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.phalanx.bench.cluster.BackendSpec;
import org.phalanx.bench.cluster.BenchController;
import org.phalanx.bench.cluster.VirtualDatabaseSpec;
import org.phalanx.bench.harness.BenchContext;
import org.phalanx.bench.harness.Endpoint;
import org.phalanx.bench.harness.Scenario;
import org.phalanx.bench.harness.Summary;
import org.phalanx.bench.harness.Tables;
import org.phalanx.bench.harness.Variant;
import org.phalanx.bench.report.Section;
import org.phalanx.bench.workload.IdentityInserts;
import org.phalanx.testkit.db.DatabaseServer;

/**
 * Inserts as ORMs and loaders send them (issue 18, done-when 4): a 1,000-row JDBC batch (in a
 * transaction, and in auto-commit) and single-row IDENTITY inserts reading their generated key,
 * one client, straight to PostgreSQL ("direct") and through a controller process whose virtual
 * database has two PostgreSQL backends. Reported per row: time, and CPU of the client, the
 * controller and PostgreSQL. PostgreSQL only: without the server the scenario is skipped (or
 * fails under PHALANX_REQUIRE_SERVERS=1).
 */
public final class BatchInserts implements Scenario {
    static final List<String> PARAMS = List.of("request", "path");
    static final String DIRECT = "direct";
    static final String TWO = "Phalanx 2";
    /** The same with a recovery log: the controller then chooses the keys (docs/heterogeneous.md, Generated keys). */
    static final String LOGGED = "Phalanx 2 with log";
    private static final List<String> PATHS = List.of(DIRECT, TWO, LOGGED);
    private static final DatabaseServer PG = DatabaseServer.POSTGRESQL;

    @Override
    public String id() {
        return "batch-inserts";
    }

    @Override
    public String title() {
        return "13. Batch and single-row IDENTITY inserts: direct PostgreSQL vs Phalanx with two PostgreSQL backends";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        Optional<String> problem = ctx.postgresUnavailable(); // throws under PHALANX_REQUIRE_SERVERS=1
        if (problem.isPresent()) {
            s.text(DirectVsPhalanx.SKIPPED + problem.get() + ". This scenario compares PostgreSQL paths only.");
            return;
        }
        int batch = ctx.scale(1000, 100);
        String prefix = DatabaseServer.perProcess("phalanx_bench") + "_ins_";
        List<String> created = new ArrayList<>();
        BenchController cp = null;
        try {
            String direct = database(prefix + "direct", created);
            String twoA = database(prefix + "two_a", created);
            String twoB = database(prefix + "two_b", created);
            String loggedA = database(prefix + "log_a", created);
            String loggedB = database(prefix + "log_b", created);
            Map<String, String> rm = Map.of("replication", "RAIDb-1", "lockGranularity", "key");
            cp = ctx.controller("inserts", List.of(
                    new VirtualDatabaseSpec("ins_two", List.of(backend("pg1", twoA), backend("pg2", twoB)), rm),
                    new VirtualDatabaseSpec("ins_logged", List.of(backend("pg1", loggedA), backend("pg2", loggedB)), rm)
                            .withAfter("<recoveryLog dir=\"ins-log\"/>")));
            Map<String, Endpoint> endpoints = Map.of(DIRECT, Endpoint.direct(direct, PG.user(), PG.password(), true),
                    TWO, Endpoint.phalanx(cp, "ins_two", true, List.of()),
                    LOGGED, Endpoint.phalanx(cp, "ins_logged", true, List.of()));
            List<Variant> variants = new ArrayList<>();
            for (IdentityInserts.Mode mode : IdentityInserts.Mode.values()) {
                IdentityInserts w = new IdentityInserts(mode, batch);
                for (String path : PATHS) {
                    variants.add(new Variant(mode.name().toLowerCase(Locale.ROOT).replace('_', '-') + "-"
                            + switch (path) {
                                case DIRECT -> "direct";
                                case TWO -> "phalanx-2";
                                default -> "phalanx-2-log";
                            }, endpoints.get(path), w, 1,
                            Map.of("request", request(mode, batch), "path", path)));
                }
            }
            Map<Variant, Summary> r = ctx.alternate(variants);
            report(ctx, s, r, batch);
        } finally {
            if (cp != null) {
                cp.close(); // before the databases go: no session of the controller left on them
            }
            for (String name : created) {
                PG.drop(name);
            }
        }
    }

    private static String request(IdentityInserts.Mode mode, int batch) {
        return switch (mode) {
            // no commas: the CSV readers of the smoke test split on them
            case BATCH -> batch + "-row batch in one transaction";
            case AUTO_COMMIT_BATCH -> batch + "-row batch in auto-commit";
            case SINGLE -> "single-row insert in auto-commit with its key read back";
        };
    }

    private static void report(BenchContext ctx, Section s, Map<Variant, Summary> r, int batch) throws Exception {
        s.text("One client inserting into `" + IdentityInserts.TABLE_DDL + "` with `INSERT INTO items (grp, name, qty)"
                + " VALUES (?, ?, ?)`: a " + batch + "-row JDBC batch (`addBatch` × " + batch + ", `executeBatch`) in a"
                + " transaction committed after it; the same batch in auto-commit; and single-row auto-commit inserts"
                + " prepared with `RETURN_GENERATED_KEYS` whose key the client reads back (what Hibernate does for"
                + " IDENTITY ids). **direct**: pgjdbc straight to PostgreSQL with its default settings. **Phalanx 2**:"
                + " the Phalanx driver to a controller process whose virtual database has two PostgreSQL backends"
                + " (`RAIDb-1`, default `waitPolicy` (`first`), `lockGranularity=\"key\"`, no recovery log), each"
                + " reached with pgjdbc's default settings; both backends are databases on the same local server as"
                + " direct's, so every row is written twice by one machine — this measures the price of replication"
                + " and of the hop, not scale-out. **Phalanx 2 with log**: the same over two more databases, with a"
                + " recovery log (a file, forced to disk before each reply): the controller then chooses each row's"
                + " key and logs it (docs/heterogeneous.md, Generated keys), given to the backends as the INSERT's"
                + " first parameter, so a batch stays one JDBC batch. Times and CPU are per row (a batch's figures"
                + " divided by its rows).");
        Tables.variants(s, r.values(), PARAMS);
        Tables.roundsCsv(s, "batch-inserts.csv", r.values(), PARAMS);

        List<List<String>> rows = new ArrayList<>();
        for (IdentityInserts.Mode mode : IdentityInserts.Mode.values()) {
            String request = request(mode, batch);
            int perRequest = new IdentityInserts(mode, batch).rowsPerRequest();
            double base = perRow(find(r, request, DIRECT), perRequest);
            for (String path : PATHS) {
                Summary x = find(r, request, path);
                var m = x.median();
                double t = perRow(x, perRequest);
                rows.add(List.of(request, path, Section.num(t) + (path.equals(DIRECT) ? "" : " (" + ratio(t / base) + ")"),
                        Section.num(m.clientCpuUs() / perRequest),
                        path.equals(DIRECT) ? "–" : Section.num(m.controllerCpuUs() / perRequest),
                        Section.num(m.databaseCpuUs() / perRequest)));
            }
        }
        s.text("**Per row** (medians over the rounds; in brackets the ratio to direct):");
        s.table(List.of("request", "path", "time per row (µs)", "client CPU (µs)", "controller CPU (µs)",
                "PostgreSQL CPU (µs)"), rows);

        target(ctx, s, "batch of " + batch + " rows in a transaction: time per row Phalanx 2 / direct",
                IdentityInserts.Mode.BATCH, r, batch);
        target(ctx, s, "batch of " + batch + " rows in auto-commit: time per row Phalanx 2 / direct",
                IdentityInserts.Mode.AUTO_COMMIT_BATCH, r, batch);
        target(ctx, s, "single-row IDENTITY insert: time per row Phalanx 2 / direct", IdentityInserts.Mode.SINGLE, r, batch);
    }

    /** Checks one target; a missed one gets a profile of the controller (unless profiling is off). */
    private static void target(BenchContext ctx, Section s, String name, IdentityInserts.Mode mode,
                               Map<Variant, Summary> r, int batch) throws Exception {
        String request = request(mode, batch);
        int perRequest = new IdentityInserts(mode, batch).rowsPerRequest();
        Summary phalanx = find(r, request, TWO);
        if (!s.target(name, perRow(phalanx, perRequest) / perRow(find(r, request, DIRECT), perRequest), "≤", 2.0, "×")
                && ctx.profiling()) {
            s.profile(name, ctx.profile(phalanx.variant(), "batch inserts, " + phalanx.variant().name()));
        }
    }

    /** Microseconds per row: one client, so the inverse of the rows per second. */
    private static double perRow(Summary x, int rowsPerRequest) {
        return 1e6 / (x.rate() * rowsPerRequest);
    }

    private static String ratio(double v) {
        return String.format(Locale.ROOT, "%.2f×", v);
    }

    private static Summary find(Map<Variant, Summary> r, String request, String path) {
        return r.values().stream().filter(v -> v.variant().param("request").equals(request)
                && v.variant().param("path").equals(path)).findFirst().orElseThrow();
    }

    private static BackendSpec backend(String name, String url) {
        return new BackendSpec(name, url, null, PG.user(), PG.password().isEmpty() ? null : PG.password(), 4);
    }

    /** A database of its own on the server with the items table, recorded for the drop at the end. */
    private static String database(String name, List<String> created) throws SQLException {
        created.add(name);
        String url = PG.create(name);
        try (Connection c = DriverManager.getConnection(url, PG.user(), PG.password())) {
            new IdentityInserts(IdentityInserts.Mode.SINGLE, 1).load(c);
        }
        return url;
    }
}
