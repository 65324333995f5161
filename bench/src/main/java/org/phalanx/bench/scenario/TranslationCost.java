package org.phalanx.bench.scenario;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
import org.phalanx.bench.workload.PointReads;
import org.phalanx.bench.workload.SmallWrites;
import org.phalanx.bench.workload.Workload;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.hetero.SqlTranslator;
import org.phalanx.testkit.db.DatabaseServer;

/**
 * What translating statements from the declared dialect costs the controller (issue 20): point
 * reads and small writes at 8 clients on a SQLite + PostgreSQL + MariaDB virtual database that
 * speaks PostgreSQL (every statement translated for SQLite and MariaDB, from the cache after the
 * first time), side by side with the same virtual database on a controller that sends statements
 * as written, with each controller's CPU per request; the per-request translation work timed in
 * this JVM on the same statements; and the first-time translation cost of each statement of a
 * corpus. Target: controller CPU per request translated / as written, at most 1.1.
 */
public final class TranslationCost implements Scenario {
    static final List<String> PARAMS = List.of("request", "vdb");
    private static final String TRANSLATED = "SQLite+PostgreSQL+MariaDB, translated";
    private static final String AS_WRITTEN = "SQLite+PostgreSQL+MariaDB, as written";
    private static final String PG_ALONE = "PostgreSQL alone";
    private static final int CLIENTS = 8;
    /** Statements to translate the first time: the workloads', TPC-C's and Hibernate's kinds. */
    private static final List<String> CORPUS = List.of(
            "SELECT abalance FROM accounts WHERE aid = ?",
            "UPDATE accounts SET abalance = abalance + ? WHERE aid = ?",
            "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
            "SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE",
            "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?",
            "INSERT INTO oorder (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?)",
            "SELECT COUNT(DISTINCT (s_i_id)) AS stock_count FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ?"
                    + " AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?",
            "SELECT no_o_id FROM new_order WHERE no_d_id = ? AND no_w_id = ? ORDER BY no_o_id ASC LIMIT 1",
            "DELETE FROM new_order WHERE no_o_id = ? AND no_d_id = ? AND no_w_id = ?",
            "select b1_0.id,b1_0.author_id,b1_0.pages,b1_0.title,b1_0.version from book b1_0 order by b1_0.title"
                    + " offset ? rows fetch first ? rows only",
            "select count(b1_0.id) from book b1_0 join author a1_0 on a1_0.id=b1_0.author_id where a1_0.name=?",
            "update book set pages=?,title=?,version=? where id=? and version=?",
            "insert into book (author_id,pages,title,version,id) values (?,?,?,?,?)",
            "select a.name, sum(b.pages), max(b.pages) from book b join author a on a.id = b.author_id"
                    + " group by a.name having a.name = ?",
            "select x.id from t x where x.name ilike ? and coalesce(x.note, '') || x.code = ?");

    @Override
    public String id() {
        return "translation";
    }

    @Override
    public String title() {
        return "15. SQL dialect translation: what it costs the controller";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        int rows = ctx.scale(100_000, 1_000);
        PointReads reads = new PointReads(rows);
        SmallWrites writes = new SmallWrites(rows);
        boolean pg = ctx.postgresUnavailable().isEmpty();
        boolean maria = DatabaseServer.MARIADB.unavailable().isEmpty();
        if (!pg || !maria) {
            if (DatabaseServer.required()) {
                throw new IllegalStateException("PostgreSQL and MariaDB are needed and " + BenchContext.REQUIRE_SERVERS
                        + "=1");
            }
            s.text(DirectVsPhalanx.SKIPPED + "PostgreSQL or MariaDB is down, and the mixed virtual database needs both.");
            return;
        }
        String prefix = DatabaseServer.perProcess("phalanx_bench") + "_tr_";
        List<Runnable> cleanup = new ArrayList<>();
        List<BenchController> controllers = new ArrayList<>();
        try {
            Path dir = MixedAgreement.sqliteFolder(ctx, prefix, cleanup);
            // the same three engines twice, each vdb on databases of its own loaded alike
            VirtualDatabaseSpec translated = MixedAgreement.vdb("tr_mixed", mixed(dir, prefix + "mixed", rows, cleanup));
            VirtualDatabaseSpec asWritten = MixedAgreement.vdb("tr_plain", mixed(dir, prefix + "plain", rows, cleanup));
            VirtualDatabaseSpec pgAlone = MixedAgreement.vdb("tr_pg",
                    List.of(MixedAgreement.server(DatabaseServer.POSTGRESQL, prefix + "alone", rows, cleanup)));
            BenchController cp = ctx.controller("translation", List.of(translated, pgAlone));
            controllers.add(cp);
            BenchController untranslated = ctx.controller("untranslated", List.of(asWritten),
                    List.of("-Dphalanx.measure.untranslated=true"));
            controllers.add(untranslated);
            List<Variant> variants = new ArrayList<>();
            for (Workload w : List.of(reads, writes)) {
                String request = w == reads ? "point read" : "update";
                String prefixName = w == reads ? "read" : "upd";
                variants.add(new Variant(prefixName + "-translated", Endpoint.phalanx(cp, "tr_mixed", true, List.of()), w,
                        CLIENTS, Map.of("request", request, "vdb", TRANSLATED)));
                variants.add(new Variant(prefixName + "-as-written", Endpoint.phalanx(untranslated, "tr_plain", true,
                        List.of()), w, CLIENTS, Map.of("request", request, "vdb", AS_WRITTEN)));
                variants.add(new Variant(prefixName + "-pg", Endpoint.phalanx(cp, "tr_pg", true, List.of()), w, CLIENTS,
                        Map.of("request", request, "vdb", PG_ALONE)));
            }
            Map<Variant, Summary> r = ctx.alternate(variants);
            report(s, r, ctx.quick());
        } finally {
            for (BenchController c : controllers) {
                c.close();
            }
            for (Runnable c : cleanup) {
                c.run();
            }
        }
    }

    /** A SQLite file and a PostgreSQL and a MariaDB database of their own, loaded alike. */
    private static List<BackendSpec> mixed(Path dir, String name, int rows, List<Runnable> cleanup) throws Exception {
        return List.of(MixedAgreement.sqlite(dir.resolve(name + ".db"), rows),
                MixedAgreement.server(DatabaseServer.POSTGRESQL, name, rows, cleanup),
                MixedAgreement.server(DatabaseServer.MARIADB, name, rows, cleanup));
    }

    private static void report(Section s, Map<Variant, Summary> r, boolean quick) throws Exception {
        long jvmFirst = Math.round(firstTimeMicros(CORPUS.get(0))); // before anything loads jOOQ's classes here
        s.text("Prepared `SELECT abalance FROM accounts WHERE aid = ?` and auto-commit `UPDATE accounts SET abalance ="
                + " abalance + ? WHERE aid = ?` on random keys, " + CLIENTS + " clients, on RAIDb-1 virtual databases of a"
                + " SQLite file, a PostgreSQL and a MariaDB database declared `sqlDialect=\"postgresql\"`, side by side:"
                + " **translated**, each statement going to PostgreSQL as written and to SQLite and MariaDB as jOOQ"
                + " renders it (from the translation cache after the first time), and **as written**, the same on a"
                + " second controller started with `-Dphalanx.measure.untranslated=true` (a switch for this measurement"
                + " only: every engine gets the statement as written, which these two portable statements allow), each"
                + " with databases of its own. PostgreSQL alone (one backend) is shown for reference: the mixed vdb runs"
                + " each write on three backends with agreement and one read in three inside the controller (SQLite).");
        Tables.variants(s, r.values(), PARAMS);
        Tables.roundsCsv(s, "translation.csv", r.values(), PARAMS);

        // the translation work a request does in the controller, timed here on the same statements
        SqlTranslator translator = new SqlTranslator(Engine.POSTGRESQL,
                Set.of(Engine.SQLITE, Engine.POSTGRESQL, Engine.MARIADB), 10_000);
        int iterations = quick ? 20_000 : 2_000_000;
        double readNs = perRequestNs(translator, CORPUS.get(0), 1, iterations);
        double writeNs = perRequestNs(translator, CORPUS.get(1), 3, iterations);
        List<List<String>> ratios = new ArrayList<>();
        boolean met = true;
        for (String request : List.of("point read", "update")) {
            double with = find(r, request, TRANSLATED).median().controllerCpuUs();
            double without = find(r, request, AS_WRITTEN).median().controllerCpuUs();
            double ratio = with / without;
            ratios.add(List.of(request, Section.num(with), Section.num(without), Section.num(ratio) + "×",
                    Section.num((request.equals("update") ? writeNs : readNs) / 1e3),
                    Section.num(find(r, request, PG_ALONE).median().controllerCpuUs())));
            met &= s.target("controller CPU per " + request + " on the mixed vdb, translated / as written", ratio,
                    "≤", 1.1, "×");
        }
        s.text("Controller CPU per request (medians over the rounds), and the translation work itself: the check"
                + " before the statement runs and one cached lookup per backend it runs on (a read: one; an update:"
                + " three), timed in the benchmark's JVM over " + iterations + " requests on the same statements.");
        s.table(List.of("request", "translated, µs/request", "as written, µs/request", "translated / as written",
                "translation work, µs/request", "PostgreSQL alone, µs/request (reference)"), ratios);
        if (!met) {
            s.analysis("Above target: compare with the translation work timed in-process (a cached lookup costs"
                    + " nanoseconds), and with the rounds' spread — this machine's two cores are shared by clients,"
                    + " controllers and the three engines.");
        }

        List<List<String>> first = new ArrayList<>();
        double[] micros = new double[CORPUS.size()];
        for (int round = 0; round < (quick ? 1 : 200); round++) { // the last round counts, its code warm
            for (int i = 0; i < CORPUS.size(); i++) {
                micros[i] = firstTimeMicros(CORPUS.get(i));
            }
        }
        for (int i = 0; i < CORPUS.size(); i++) {
            first.add(List.of("`" + CORPUS.get(i) + "`", Section.num(micros[i])));
        }
        double[] sorted = micros.clone();
        Arrays.sort(sorted);
        s.text(String.format(Locale.ROOT, "First-time translation of a statement (parsed as PostgreSQL, rendered for"
                + " SQLite and MariaDB, checked): the first statement of a fresh JVM took %d µs (jOOQ loading its"
                + " classes); once warm, median %s µs, largest %s µs over the %d statements below (each on a fresh"
                + " translator, last of %d rounds). A statement text is translated once and then served from the cache"
                + " (`analysisCacheSize` texts).", jvmFirst, Section.num(sorted[sorted.length / 2]),
                Section.num(sorted[sorted.length - 1]), CORPUS.size(), quick ? 1 : 200));
        s.table(List.of("statement", "first-time translation, µs"), first);
    }

    /** Microseconds a fresh translator takes to translate {@code sql} for SQLite and MariaDB and check it. */
    private static double firstTimeMicros(String sql) {
        SqlTranslator fresh = new SqlTranslator(Engine.POSTGRESQL, Set.of(Engine.SQLITE, Engine.POSTGRESQL,
                Engine.MARIADB), 10);
        long start = System.nanoTime();
        try {
            fresh.check(sql);
        } catch (SQLException refused) {
            // timed all the same: a refusal is a translation too
        }
        return (System.nanoTime() - start) / 1e3;
    }

    /** Nanoseconds of translation work per request: the check, then one translation per backend. */
    private static double perRequestNs(SqlTranslator t, String sql, int backends, int iterations) throws SQLException {
        Engine[] engines = {Engine.SQLITE, Engine.POSTGRESQL, Engine.MARIADB};
        long sink = 0;
        for (int warm = 0; warm < 2; warm++) { // the first pass warms the code, the second is timed
            long start = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                t.check(sql);
                for (int b = 0; b < backends; b++) {
                    sink += t.translate(sql, engines[(i + b) % engines.length]).length();
                }
            }
            long elapsed = System.nanoTime() - start;
            if (warm == 1) {
                return sink == 0 ? Double.NaN : (double) elapsed / iterations;
            }
        }
        throw new IllegalStateException("unreachable");
    }

    private static Summary find(Map<Variant, Summary> r, String request, String vdb) {
        return r.values().stream().filter(x -> x.variant().param("request").equals(request)
                && x.variant().param("vdb").equals(vdb)).findFirst().orElseThrow();
    }
}
