package org.phalanx.bench.scenario;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.phalanx.bench.cluster.BackendSpec;
import org.phalanx.bench.cluster.BenchController;
import org.phalanx.bench.cluster.EmulatedBackends;
import org.phalanx.bench.cluster.VirtualDatabaseSpec;
import org.phalanx.bench.harness.BenchContext;
import org.phalanx.bench.harness.Endpoint;
import org.phalanx.bench.harness.RunResult;
import org.phalanx.bench.harness.Scenario;
import org.phalanx.bench.harness.Summary;
import org.phalanx.bench.harness.Tables;
import org.phalanx.bench.harness.Variant;
import org.phalanx.bench.report.Section;
import org.phalanx.bench.workload.Bookstore;
import org.phalanx.bench.workload.PointReads;
import org.phalanx.bench.workload.SmallWrites;
import org.phalanx.bench.workload.Workload;
import org.phalanx.testkit.jdbc.CostModel;
import org.phalanx.testkit.process.GroupProbe;
import org.phalanx.testkit.process.Ports;

/**
 * Scenario 14, a distributed virtual database (issue 19, done-when 5): three controller processes
 * of one group, each with two emulated backends of its own, against one controller with two
 * emulated backends, both with a file recovery log: write throughput, read throughput, the TPC-W-like
 * ordering mix (3 controllers x 2 backends against 1 controller x 6), and the write stall when the
 * primary is killed.
 */
public final class Distribution implements Scenario {
    static final int SLOTS = 2;
    static final int BACKENDS = 2;
    static final int MEMBERS = 3;
    static final Duration WRITE_SERVICE = Duration.ofMillis(1);
    static final Duration READ_SERVICE = Duration.ofMillis(5);
    static final int WRITE_CLIENTS = 16;
    static final int READ_CLIENTS = 48;
    /** The TPC-W ordering mix: one controller over as many backends as the whole group has. */
    static final int ORDERING_SINGLE_BACKENDS = MEMBERS * BACKENDS;
    /** As the bookstore scenario: 8 clients per backend of the one controller. */
    static final int ORDERING_CLIENTS = 8 * ORDERING_SINGLE_BACKENDS;
    /**
     * Three controller JVMs share 2 cores with the harness: their JIT compilers take longer than
     * one JVM's to reach steady speed (measured: 0.45x one controller's writes after 2 s, 0.76x after 10 s).
     */
    static final Duration WARMUP = Duration.ofSeconds(10);
    /** In quick (smoke) runs: enough for the group's cold members to answer writes. */
    static final Duration QUICK_WARMUP = Duration.ofMillis(1000);

    @Override
    public String id() {
        return "distribution";
    }

    @Override
    public String title() {
        return "14. Distributed virtual database: three controllers of one group vs one controller";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        SmallWrites writes = new SmallWrites(ctx.scale(20_000, 500));
        PointReads reads = new PointReads(ctx.scale(20_000, 500));
        CostModel writeModel = model("update", WRITE_SERVICE, "^\\s*UPDATE");
        EmulatedBackends sqliteWrites = ctx.emulated("dist-writes", EmulatedBackends.Engine.SQLITE, writes, writeModel, SLOTS);
        EmulatedBackends h2Writes = ctx.emulated("dist-writes-h2", EmulatedBackends.Engine.H2, writes, writeModel, SLOTS);
        EmulatedBackends readBackends = ctx.emulated("dist-reads", EmulatedBackends.Engine.SQLITE, reads,
                model("point-read", READ_SERVICE, "^\\s*SELECT"), SLOTS);
        Bookstore ordering = new Bookstore(Bookstore.Mix.ORDERING,
                new Bookstore.Dataset(ctx.scale(1000, 100), ctx.scale(1000, 50)));
        EmulatedBackends bookstore = ctx.emulated("dist-bookstore", EmulatedBackends.Engine.H2, ordering,
                ctx.quick() ? Bookstore.costModel().scaled(0.1) : Bookstore.costModel(), SLOTS);
        List<Load> loads = List.of(
                new Load("SQLite writes", "w", sqliteWrites, writes, WRITE_CLIENTS,
                        Map.of("replication", "RAIDb-1", "waitPolicy", "all"), BACKENDS),
                new Load("row-lock writes", "k", h2Writes, writes, WRITE_CLIENTS,
                        Map.of("replication", "RAIDb-1", "waitPolicy", "all", "lockGranularity", "key"), BACKENDS),
                new Load("reads", "r", readBackends, reads, READ_CLIENTS,
                        Map.of("replication", "RAIDb-1", "balancing", "round-robin"), BACKENDS),
                // as the bookstore scenario's virtual databases; one controller over all six backends; each
                // interaction one transaction, declared read-only when it writes nothing
                new Load("ordering mix", "o", bookstore, ordering.inTransactions(), ORDERING_CLIENTS, Map.of("replication", "RAIDb-1",
                        "waitPolicy", "first", "balancing", "least-pending", "lockGranularity", "table"),
                        ORDERING_SINGLE_BACKENDS));

        List<VirtualDatabaseSpec> singles = new ArrayList<>();
        for (Load l : loads) {
            singles.add(logged(new VirtualDatabaseSpec("one_" + l.id, l.backends.backends("one" + l.id + "-b",
                    l.singleBackends, l.poolSize()), l.requestManager), "one_" + l.id, null));
        }
        BenchController single = ctx.controller("dist-one", singles);
        List<Group> groups = new ArrayList<>();
        for (Load l : loads) {
            groups.add(new Group("group_" + l.id));
        }
        List<BenchController> members = new ArrayList<>();
        for (int m = 1; m <= MEMBERS; m++) {
            List<VirtualDatabaseSpec> hosted = new ArrayList<>();
            for (int i = 0; i < loads.size(); i++) {
                Load l = loads.get(i);
                hosted.add(groups.get(i).member(m, l.backends.backends("g" + l.id + m + "-b", BACKENDS, l.poolSize()),
                        l.requestManager));
            }
            members.add(ctx.groupMember("dist-member" + m, hosted));
        }
        List<Variant> variants = new ArrayList<>();
        int[] primaries = new int[loads.size()];
        for (int i = 0; i < loads.size(); i++) {
            Load l = loads.get(i);
            primaries[i] = groups.get(i).awaitPrimary(members);
            variants.add(new Variant(l.name + " 1 controller", Endpoint.phalanx(single, singles.get(i).name(), false,
                    singles.get(i).backendNames()), l.workload, l.clients,
                    Map.of("load", l.name, "controllers", 1, "backends", l.singleBackends)));
            // reads in read-only sessions, which every member serves, spread over them by new connection
            String options = l.workload == reads ? "?readOnly=true&connectPolicy=roundRobin" : "";
            variants.add(new Variant(l.name + " 3 controllers", groups.get(i).endpoint(members, primaries[i], options),
                    l.workload, l.clients, Map.of("load", l.name, "controllers", MEMBERS, "backends", MEMBERS * BACKENDS)));
        }
        // the same mix through connections that run their read-only transactions on the followers
        Load orderingLoad = loads.get(loads.size() - 1);
        variants.add(new Variant(orderingLoad.name + " 3 controllers, read-only on followers",
                groups.get(loads.size() - 1).endpoint(members, primaries[loads.size() - 1],
                        "?readOnlyRouting=followers&connectPolicy=roundRobin"),
                orderingLoad.workload, orderingLoad.clients, Map.of("load", orderingLoad.name + ", read-only on followers",
                        "controllers", MEMBERS, "backends", MEMBERS * BACKENDS)));
        // quick: cold, C1-only group members on a loaded machine took over 0.4 s for their first writes
        ctx.warmupAtLeast(WARMUP, QUICK_WARMUP);
        Map<Variant, Summary> r = ctx.alternate(variants);
        List<Summary> all = List.copyOf(r.values());

        s.text("One controller hosting RAIDb-1 virtual databases over " + BACKENDS + " emulated backends each, with a"
                + " file recovery log, against a group of " + MEMBERS + " controller processes hosting the same virtual"
                + " databases (docs/distribution.md), each member with " + BACKENDS + " emulated backends of its own and"
                + " a file recovery log, clients naming all three in their URL. Writes: auto-commit `UPDATE accounts SET"
                + " abalance = abalance + ? WHERE aid = ?`, " + WRITE_CLIENTS + " clients, " + WRITE_SERVICE.toMillis()
                + " ms per update per backend, over SQLite files (whole-database locks: the updates run one after"
                + " another on each backend) and over H2 databases with `lockGranularity=\"key\"` (row locks: updates"
                + " of different rows overlap, as on PostgreSQL or MariaDB); reads: point `SELECT`s, " + READ_CLIENTS
                + " clients, " + READ_SERVICE.toMillis() + " ms per read; " + SLOTS + " slots per backend. A group runs"
                + " as primary-backup: the primary alone serves sessions, each write is acknowledged once a majority of"
                + " the controllers holds it in the replicated log (jgroups-raft, fsync on) and the primary's local copy"
                + " holds it, and the followers apply the log to their own backends. The group's readers connect with"
                + " `readOnly=true&connectPolicy=roundRobin`: read-only sessions, which every member serves (a"
                + " follower from its own backends), each new connection starting one member further; the CPU and"
                + " backend figures are the primary's only. Warm-ups here last at least " + WARMUP.toSeconds()
                + " s: three controller JVMs sharing 2 cores take that long for their JIT compilers to reach steady"
                + " speed (after the suite's usual 2 s the group's writes measured 0.45× and 0.39× one controller's,"
                + " rising round after round).");
        Tables.variants(s, all, List.of("load", "controllers", "backends"));
        Tables.roundsCsv(s, "distribution.csv", all, List.of("load", "controllers", "backends"));
        s.target("write throughput over SQLite, 3 controllers / 1 controller (same backends per controller)",
                all.get(1).rate() / all.get(0).rate(), "≥", 0.7, "×");
        s.target("write throughput with row locks, 3 controllers / 1 controller (same backends per controller)",
                all.get(3).rate() / all.get(2).rate(), "≥", 0.7, "×");
        boolean readsMet = s.target("read throughput, 3 controllers / 1 controller", all.get(5).rate() / all.get(4).rate(),
                "≥", 2.7, "×");
        s.analysis(analysis(all, readsMet));
        RunResult oneController = all.get(6).median();
        RunResult group = all.get(7).median();
        RunResult routed = all.get(8).median();
        s.text(String.format(Locale.ROOT, "**TPC-W-like ordering mix** (50%% read-only interactions; each interaction"
                        + " one transaction, declared read-only with `setReadOnly(true)` when it writes nothing; the"
                        + " bookstore scenario's schema, cost model and virtual database settings), %d clients:"
                        + " 3 controllers × %d backends / 1 controller × %d backends = **%.2f×** (no target) with"
                        + " read-write connections, which a group serves on the primary alone, over its %d backends"
                        + " (%.0f against %.0f interactions/s, the primary's backends %.0f%% busy against %.0f%%); and"
                        + " **%.2f×** (%.0f interactions/s, the primary's backends %.0f%% busy) when the connections say"
                        + " `readOnlyRouting=followers`: their read-only transactions run on a follower's read-only"
                        + " session of their own (docs/distribution.md, 'Read-only work of read-write connections'),"
                        + " the writing ones on the primary.",
                ORDERING_CLIENTS, BACKENDS, ORDERING_SINGLE_BACKENDS, group.rate() / oneController.rate(), BACKENDS,
                group.rate(), oneController.rate(), group.utilisation() * 100, oneController.utilisation() * 100,
                routed.rate() / oneController.rate(), routed.rate(), routed.utilisation() * 100));

        double[] stall = killThePrimary(ctx, groups.get(1), members, primaries[1]);
        s.text(String.format(Locale.ROOT, "**Write stall after the primary is killed.** %d clients write through the"
                        + " group's URL for %d s; the primary's process is then killed (kill -9) and they go on for %d s."
                        + " Each client's longest time without an acknowledged write is its stall (detection of the"
                        + " dead member, a claim of the primary role in the log, the new primary's catch-up, the"
                        + " driver's failover); over the clients: median %.0f ms, p99 %.0f ms, max %.0f ms.",
                WRITE_CLIENTS, ctx.quick() ? 1 : 3, ctx.quick() ? 4 : 8, stall[0], stall[1], stall[2]));
        s.target("write stall after the primary is killed: p99 over the clients", stall[1] / 1000, "≤", 3.0, " s");
    }

    /** Why the group's figures are what they are, from this run's measurements. */
    private static String analysis(List<Summary> all, boolean readsMet) {
        StringBuilder a = new StringBuilder();
        for (int i = 0; i < 4; i += 2) {
            RunResult one = all.get(i).median();
            RunResult group = all.get(i + 1).median();
            a.append(String.format(Locale.ROOT, "- %s: one controller %.0f writes/s with %.0f µs of controller CPU"
                            + " per write; the group %.0f writes/s with %.0f µs on its primary, while processes outside"
                            + " the benchmark's own (the two followers, replaying every write onto their backends and"
                            + " keeping their copies of the log) used %.2f cores against %.2f. ",
                    all.get(i).variant().param("load"), one.rate(), one.controllerCpuUs(), group.rate(),
                    group.controllerCpuUs(), group.otherCores(), one.otherCores()));
            a.append(String.format(Locale.ROOT, "Client p50 %.1f ms against %.1f ms.%n", group.all().p50() / 1e3,
                    one.all().p50() / 1e3));
        }
        a.append("\nOn this 2-core machine the group's three controller JVMs, the harness and the emulated engines"
                + " share the CPUs: the primary spends more CPU per write than one controller (the entry goes to the"
                + " group's log — JGroups messages to and from two followers, a log append on each — and into its"
                + " own copy, each with a thread hand-off), and the followers spend about as much again replaying it,"
                + " so writes are bounded by the machine rather than by the controllers; deployed one controller per"
                + " host, only the primary's part stays on the write path. Over SQLite every write also holds the"
                + " database file locked until a majority holds its entry (a unit commits on a backend only once it is"
                + " durable), so writes wait for one another's log round trip.\n");
        if (!readsMet) {
            RunResult one = all.get(4).median();
            RunResult group = all.get(5).median();
            a.append(String.format(Locale.ROOT, "%nReads: one controller %.0f reads/s (its backends %.0f%% busy);"
                            + " the group's read-only sessions spread over the three members %.0f reads/s, the primary's"
                            + " backends %.0f%% busy, processes outside the benchmark's own (the followers) using %.2f"
                            + " cores. Three members' backends can serve three times one controller's reads; what"
                            + " remains is the machine: three controller JVMs and the harness on 2 cores.%n",
                    one.rate(), one.utilisation() * 100, group.rate(), group.utilisation() * 100, group.otherCores()));
        }
        return a.toString();
    }

    /** One kind of load, measured on one controller and on the group (no commas in names: the CSV has none). */
    private record Load(String name, String id, EmulatedBackends backends, Workload workload, int clients,
                        Map<String, String> requestManager, int singleBackends) {
        /** Enough connections per backend for every client. */
        int poolSize() {
            return Math.max(16, clients + 4);
        }
    }

    private static CostModel model(String name, Duration service, String pattern) {
        return CostModel.builder().add(name, service, pattern).add("other", Duration.ZERO, ".")
                .add("commit", Duration.ZERO, CostModel.COMMIT).add("rollback", Duration.ZERO, CostModel.ROLLBACK).build();
    }

    /** The same virtual database with a file recovery log and, for a group member, its distribution element. */
    private static VirtualDatabaseSpec logged(VirtualDatabaseSpec v, String name, String distribution) {
        return v.withAfter("  <recoveryLog dir=\"log-" + name + "\" dumpDir=\"dumps-" + name + "\"/>\n"
                + (distribution == null ? "" : distribution));
    }

    /** {@code clients} writers for a while, the primary killed, then a while more: their stalls (median, p99, max), ms. */
    private static double[] killThePrimary(BenchContext ctx, Group group, List<BenchController> members, int primary)
            throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Long> stalls = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        String url = group.url(members);
        for (int c = 0; c < WRITE_CLIENTS; c++) {
            long seed = c;
            Thread t = new Thread(() -> stalls.add(writeUntil(url, seed, stop)), "stall-writer-" + c);
            threads.add(t);
            t.start();
        }
        Thread.sleep(ctx.quick() ? 1_000 : 3_000);
        members.get(primary).kill();
        Thread.sleep(ctx.quick() ? 4_000 : 8_000);
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        List<Long> sorted = new ArrayList<>(stalls);
        Collections.sort(sorted);
        return new double[] {sorted.get(sorted.size() / 2) / 1e6,
                sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(0.99 * sorted.size()) - 1)) / 1e6,
                sorted.get(sorted.size() - 1) / 1e6};
    }

    /** Writes until told to stop, going on through failovers; the longest time between two acknowledged writes (ns). */
    private static long writeUntil(String url, long seed, AtomicBoolean stop) {
        long longest = 0;
        long last = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        while (!stop.get()) {
            try (Connection c = DriverManager.getConnection(url, BenchController.USER, BenchController.PASSWORD);
                 PreparedStatement ps = c.prepareStatement("UPDATE accounts SET abalance = abalance + ? WHERE aid = ?")) {
                while (!stop.get()) {
                    ps.setInt(1, random.nextInt(-5000, 5001));
                    ps.setInt(2, 1 + random.nextInt(100));
                    try {
                        ps.executeUpdate();
                        long now = System.nanoTime();
                        longest = Math.max(longest, now - last);
                        last = now;
                    } catch (SQLException e) {
                        // no primary for a moment: the next write goes to the new one
                    }
                }
            } catch (SQLException e) {
                // no primary yet: connect again
            }
        }
        return longest;
    }

    /** One distributed virtual database over the members: its group's ports and each member's configuration. */
    private static final class Group {
        final String vdb;
        final List<Integer> logPorts = new ArrayList<>();
        final List<List<String>> backendNames = new ArrayList<>();

        Group(String vdb) throws IOException {
            this.vdb = vdb;
            for (int m = 0; m < MEMBERS; m++) {
                logPorts.add(Ports.free());
            }
        }

        VirtualDatabaseSpec member(int m, List<BackendSpec> backends, Map<String, String> requestManager) {
            StringBuilder d = new StringBuilder("  <distribution group=\"" + vdb + "-group\" member=\"m" + m
                    + "\" logDir=\"group-log-" + vdb + "\">\n");
            for (int i = 0; i < MEMBERS; i++) {
                d.append("    <member name=\"m").append(i + 1).append("\" address=\"127.0.0.1:").append(logPorts.get(i))
                        .append("\"/>\n");
            }
            d.append("  </distribution>\n");
            backendNames.add(backends.stream().map(BackendSpec::name).toList());
            return logged(new VirtualDatabaseSpec(vdb, backends, requestManager), vdb, d.toString());
        }

        String url(List<BenchController> members) {
            return "jdbc:phalanx://" + String.join(",", members.stream().map(BenchController::address).toList()) + "/"
                    + vdb;
        }

        Endpoint endpoint(List<BenchController> members, int primary, String options) {
            return new Endpoint(url(members) + options, Endpoint.login(BenchController.USER, BenchController.PASSWORD),
                    members.get(primary), vdb, false, backendNames.get(primary));
        }

        /** The member serving the group's sessions, once one does. */
        int awaitPrimary(List<BenchController> members) throws InterruptedException {
            int primary = GroupProbe.primary(members.stream().map(BenchController::address).toList(), vdb,
                    BenchController.USER, BenchController.PASSWORD, Duration.ofMinutes(2));
            if (primary < 0) {
                throw new IllegalStateException("no member of " + vdb + " serves sessions");
            }
            return primary;
        }
    }
}
