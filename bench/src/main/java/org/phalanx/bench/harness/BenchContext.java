package org.phalanx.bench.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.phalanx.bench.cluster.BenchController;
import org.phalanx.bench.cluster.EmulatedBackends;
import org.phalanx.bench.cluster.VirtualDatabaseSpec;
import org.phalanx.bench.workload.Workload;
import org.phalanx.testkit.db.DatabaseServer;
import org.phalanx.testkit.jdbc.CostModel;

/**
 * What a scenario gets from the suite: the options (durations, rounds, quick mode), scratch
 * folders, controller processes (closed after the scenario), emulated backends, the PostgreSQL
 * server's availability, the alternating runner and the profiler.
 */
public final class BenchContext {
    /** Set to 1 (as .ci/run does) to fail rather than skip when a database server is missing. */
    public static final String REQUIRE_SERVERS = DatabaseServer.REQUIRE_SERVERS;
    /**
     * This process's PostgreSQL database: runs at the same time (a smoke test during a full run)
     * never reload each other's tables.
     */
    private static final String POSTGRES_DATABASE = DatabaseServer.perProcess("phalanx_bench");

    private final Options options;
    private final String scenario;
    private final List<BenchController> controllers = new ArrayList<>();
    private java.time.Duration minWarmup = java.time.Duration.ZERO;
    private Optional<String> postgresProblem;
    private String postgresUrl;

    public BenchContext(Options options, String scenario) {
        this.options = options;
        this.scenario = scenario;
    }

    public Options options() {
        return options;
    }

    public boolean quick() {
        return options.quick();
    }

    /** A dataset size: {@code normal} for real runs, {@code tiny} in quick (smoke) mode. */
    public int scale(int normal, int tiny) {
        return options.quick() ? tiny : normal;
    }

    public ClosedLoop.Timing timing() {
        return new ClosedLoop.Timing(warmup(), options.measure());
    }

    /** The warm-up before each measured period: the option's, or longer where a scenario needs it. */
    private java.time.Duration warmup() {
        return minWarmup.compareTo(options.warmup()) <= 0 ? options.warmup() : minWarmup;
    }

    /**
     * Makes every warm-up of this scenario at least {@code warmup}, or {@code quickWarmup} in quick
     * mode (several controller JVMs sharing the machine's cores take longer than one for their JIT
     * compilers to reach steady speed; a quick run only needs them to answer within its short measure).
     */
    public void warmupAtLeast(java.time.Duration warmup, java.time.Duration quickWarmup) {
        this.minWarmup = options.quick() ? quickWarmup : warmup;
    }

    /** This scenario's scratch folder (database files, controller configs and logs). */
    public Path work(String sub) {
        return options.work().resolve(scenario).resolve(sub);
    }

    public BenchController controller(String name, List<VirtualDatabaseSpec> vdbs) throws Exception {
        return controller(name, vdbs, List.of());
    }

    /** The same, with these system properties ({@code -Dname=value}) for the controller's JVM. */
    public BenchController controller(String name, List<VirtualDatabaseSpec> vdbs, List<String> properties)
            throws Exception {
        // quick (smoke) runs are too short for C2 to pay off: C1 alone starts faster on a loaded machine
        List<String> jvm = new java.util.ArrayList<>(properties);
        if (options.quick()) {
            jvm.add("-XX:TieredStopAtLevel=1");
        }
        BenchController cp = BenchController.start(work("controller-" + name), vdbs, options.controllerCpus(), jvm);
        controllers.add(cp);
        return cp;
    }

    /** A member of a distributed virtual database's group ({@link BenchController#startMember}), closed at the end. */
    public BenchController groupMember(String name, List<VirtualDatabaseSpec> vdbs) throws Exception {
        BenchController cp = BenchController.startMember(work("controller-" + name), vdbs, options.controllerCpus(),
                options.quick() ? List.of("-XX:TieredStopAtLevel=1") : List.of());
        controllers.add(cp);
        return cp;
    }

    public EmulatedBackends emulated(String name, EmulatedBackends.Engine engine, Workload w, CostModel model, int slots)
            throws SQLException, IOException {
        return EmulatedBackends.prepare(work("backends-" + name), engine, w, model, slots);
    }

    /**
     * Empty when PostgreSQL is usable; otherwise the reason, printed. With
     * PHALANX_REQUIRE_SERVERS=1 a missing server is an error instead.
     */
    public Optional<String> postgresUnavailable() {
        if (postgresProblem == null) {
            postgresProblem = DatabaseServer.POSTGRESQL.unavailable();
            if (postgresProblem.isPresent()) {
                if (DatabaseServer.required()) {
                    throw new IllegalStateException(postgresProblem.get() + " and " + REQUIRE_SERVERS + "=1");
                }
                System.out.println("[" + scenario + "] skipping the PostgreSQL part: " + postgresProblem.get());
            }
        }
        return postgresProblem;
    }

    /**
     * Runs the variants alternately, A B C A B C ..., for the configured rounds, and returns
     * each variant's medians (in the given order).
     */
    public Map<Variant, Summary> alternate(List<Variant> variants) throws Exception {
        return alternate(variants, options.rounds());
    }

    /** The same with a number of rounds of its own (e.g. one round for a calibration ramp). */
    public Map<Variant, Summary> alternate(List<Variant> variants, int rounds) throws Exception {
        Map<Variant, List<RunResult>> results = new LinkedHashMap<>();
        for (Variant v : variants) {
            results.put(v, new ArrayList<>());
        }
        if (!options.quick()) {
            // one unrecorded pass first, so that no variant pays for the controller's JIT warm-up in round 1
            for (Variant v : variants) {
                ClosedLoop.run(v, new ClosedLoop.Timing(warmup(), java.time.Duration.ofMillis(200)), 0, 1);
            }
            System.out.println("[" + scenario + "] warm-up pass over " + variants.size() + " variant(s) done");
        }
        for (int round = 1; round <= rounds; round++) {
            for (Variant v : variants) {
                RunResult r = ClosedLoop.run(v, timing(), round, round * 7919L + v.name().hashCode());
                results.get(v).add(r);
                System.out.printf(Locale.ROOT, "[%s] round %d/%d %-28s %9.1f req/s  p50 %8.3f ms  p99 %8.3f ms%s%n",
                        scenario, round, rounds, v.name(), r.rate(), r.all().p50() / 1e3, r.all().p99() / 1e3,
                        r.firstError() == null ? "" : "  (" + r.firstError() + ")");
            }
        }
        Map<Variant, Summary> summaries = new LinkedHashMap<>();
        results.forEach((v, list) -> summaries.put(v, Summary.of(v, list)));
        return summaries;
    }

    /** Whether missed targets get a JFR profile (off with --no-profile and in quick mode). */
    public boolean profiling() {
        return options.profile() && !options.quick();
    }

    /** Runs the variant once more with a JFR recording of its controller; returns the summary (markdown). */
    public String profile(Variant v, String what) {
        BenchController cp = v.endpoint().controller();
        if (cp == null) {
            return Profiler.unavailable(what, new IllegalArgumentException("the variant has no controller"));
        }
        Path file = options.out().resolve("target").resolve("profiles").resolve(scenario + "-" + v.name().replaceAll("[^A-Za-z0-9]+", "-")
                + ".jfr");
        System.out.println("[" + scenario + "] profiling the controller during " + v.name() + " (" + what + ")");
        try {
            // a longer warm-up: starting a recording makes the JIT recompile for a few seconds
            ClosedLoop.Timing t = new ClosedLoop.Timing(options.warmup().multipliedBy(3), options.measure());
            return Profiler.profile(cp.pid(), file, what + " (variant " + v.name() + ")",
                    hook -> ClosedLoop.run(v, t, 0, 4242, hook));
        } catch (Exception e) {
            return Profiler.unavailable(what, e);
        }
    }

    /** Creates (once) this run's PostgreSQL database, dropped when the scenario ends; returns its URL. */
    public String postgresDatabase() throws java.sql.SQLException {
        if (postgresUrl == null) {
            postgresUrl = DatabaseServer.POSTGRESQL.create(POSTGRES_DATABASE);
        }
        return postgresUrl;
    }

    public void close() {
        for (BenchController cp : controllers) {
            cp.close();
        }
        controllers.clear();
        if (postgresUrl != null) {
            DatabaseServer.POSTGRESQL.drop(POSTGRES_DATABASE);
            postgresUrl = null;
        }
    }
}
