package org.phalanx.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.phalanx.bench.cluster.BackendSpec;
import org.phalanx.bench.cluster.BenchController;
import org.phalanx.bench.cluster.VirtualDatabaseSpec;
import org.phalanx.bench.harness.BenchContext;
import org.phalanx.bench.harness.Scenario;
import org.phalanx.bench.report.Section;
import org.phalanx.bench.workload.PointReads;
import org.phalanx.controller.Controller;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.requestmanager.verify.OnDifference;
import org.phalanx.requestmanager.verify.VerificationReport;
import org.phalanx.requestmanager.verify.VerificationRequest;

/**
 * Online replica verification (issue 22, done-when 1): a 1,000,000-row table on three SQLite
 * replicas verified while a write workload runs through the controller. Each round measures the
 * workload alone, then the workload while {@code verify} runs unthrottled and then throttled, side by
 * side: rows compared per second, and the workload's throughput with and without verification. Like the
 * recovery scenario it drives the operator API in the harness's JVM. No target: the figures are
 * reported.
 */
public final class Verification implements Scenario {
    private static final int CLIENTS = 4;
    /** The throttled variant's limit: about a quarter of what an unthrottled run compares here. */
    private static final long THROTTLE_ROWS_PER_SECOND = 50_000;

    /** One verification run beside the workload. */
    private record Run(double seconds, double rowsPerSecond, double writesDuring, long differences) {
    }

    /** One round's figures: the workload alone, then with an unthrottled and a throttled verification. */
    private record Round(int round, long rows, double writesAlone, Run unthrottled, Run throttled) {
    }

    @Override
    public String id() {
        return "verify";
    }

    @Override
    public String title() {
        return "16. Online replica verification of a 1,000,000-row table under a write workload";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        int rows = ctx.scale(1_000_000, 2_000);
        Path dir = ctx.work("verify");
        Files.createDirectories(dir);
        Path b1 = dir.resolve("verify-b1.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + b1)) {
            PointReads.loadAccounts(c, rows);
        }
        List<BackendSpec> backends = new ArrayList<>();
        for (String name : List.of("b1", "b2", "b3")) {
            Path f = dir.resolve("verify-" + name + ".db");
            if (!f.equals(b1)) {
                Files.copy(b1, f, StandardCopyOption.REPLACE_EXISTING);
            }
            backends.add(new BackendSpec(name, "jdbc:sqlite:" + f, null, null, null, 8));
        }
        Map<String, String> rm = new LinkedHashMap<>();
        rm.put("replication", "RAIDb-1");
        rm.put("waitPolicy", "first");
        VirtualDatabaseSpec spec = new VirtualDatabaseSpec("verified", backends, rm)
                .withAfter("  <recoveryLog dir=\"log-verify\" dumpDir=\"dumps-verify\"/>");
        Controller controller = Controller.fromConfig(BenchController.writeConfig(ctx.work("verify-controller"),
                List.of(spec), 0));
        List<Round> rounds = new ArrayList<>();
        String statesAfter;
        try {
            controller.start();
            VirtualDatabase vdb = controller.virtualDatabase("verified");
            String url = "jdbc:phalanx://127.0.0.1:" + controller.port() + "/verified";
            long measureMillis = ctx.options().measure().toMillis();
            for (int round = 1; round <= ctx.options().rounds(); round++) {
                double alone;
                try (Writers w = new Writers(url, rows, round)) {
                    Thread.sleep(Math.min(1000, measureMillis)); // warm-up
                    long before = w.writes();
                    long t0 = System.nanoTime();
                    Thread.sleep(measureMillis);
                    alone = (w.writes() - before) / ((System.nanoTime() - t0) / 1e9);
                }
                Run unthrottled = verifyBeside(vdb, url, rows, round, measureMillis, VerificationRequest.of(List.of("accounts")));
                Run throttled = verifyBeside(vdb, url, rows, round, measureMillis, new VerificationRequest(
                        List.of("accounts"), THROTTLE_ROWS_PER_SECOND, VerificationRequest.DEFAULT_CHUNK_ROWS,
                        OnDifference.REPORT, null));
                Round r = new Round(round, rows, alone, unthrottled, throttled);
                rounds.add(r);
                System.out.printf(Locale.ROOT, "[verify] round %d: %,d rows; workload %,.0f writes/s alone; unthrottled"
                                + " %.2f s (%,.0f rows/s), %,.0f writes/s; throttled %.2f s (%,.0f rows/s), %,.0f writes/s%n",
                        round, rows, alone, unthrottled.seconds(), unthrottled.rowsPerSecond(), unthrottled.writesDuring(),
                        throttled.seconds(), throttled.rowsPerSecond(), throttled.writesDuring());
            }
            statesAfter = vdb.backendStates().toString();
        } finally {
            controller.stop();
        }
        report(s, rows, rounds);
        s.text("Replica states after the last round: " + statesAfter + " (a replica the verification slowed past"
                + " maxQueuedWrites would show DISABLED).");
    }

    /** Verifies while the workload runs; its writes/s are those between the start and the end of {@code verify}. */
    private static Run verifyBeside(VirtualDatabase vdb, String url, int rows, int round, long measureMillis,
                                    VerificationRequest request) throws Exception {
        try (Writers w = new Writers(url, rows, round)) {
            Thread.sleep(Math.min(1000, measureMillis)); // warm-up
            long before = w.writes();
            long t0 = System.nanoTime();
            VerificationReport report = vdb.verify(request, null);
            double seconds = (System.nanoTime() - t0) / 1e9;
            return new Run(seconds, report.rowsCompared() / seconds, (w.writes() - before) / seconds, report.differences());
        }
    }

    /** {@value #CLIENTS} connections doing auto-commit updates of random accounts until closed. */
    private static final class Writers implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicLong writes = new AtomicLong();
        private final AtomicReference<Exception> failure = new AtomicReference<>();
        private final List<Thread> threads = new ArrayList<>();

        Writers(String url, int rows, int round) {
            for (int t = 0; t < CLIENTS; t++) {
                int id = t;
                Thread th = new Thread(() -> {
                    SplittableRandom r = new SplittableRandom(round * 31L + id);
                    try (Connection c = DriverManager.getConnection(url, BenchController.USER, BenchController.PASSWORD);
                         PreparedStatement ps = c.prepareStatement(
                                 "UPDATE accounts SET abalance = abalance + ? WHERE aid = ?")) {
                        while (!stop.get()) {
                            ps.setInt(1, 1 + r.nextInt(100));
                            ps.setInt(2, 1 + r.nextInt(rows));
                            ps.executeUpdate();
                            writes.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failure.compareAndSet(null, e);
                    }
                }, "verify-writer-" + t);
                th.start();
                threads.add(th);
            }
        }

        long writes() {
            return writes.get();
        }

        @Override
        public void close() throws Exception {
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            if (failure.get() != null) {
                throw failure.get();
            }
        }
    }

    private static void report(Section s, int rows, List<Round> rounds) throws java.io.IOException {
        s.text("A virtual database over three SQLite replicas (RAIDb-1, `waitPolicy=\"first\"`, a file recovery log)"
                + " holding the pgbench-like table `accounts (aid INTEGER PRIMARY KEY, bid INTEGER, abalance INTEGER,"
                + " filler VARCHAR(84))` with " + String.format(Locale.ROOT, "%,d", rows) + " rows. The workload: "
                + CLIENTS + " client connections through the Phalanx driver doing auto-commit `UPDATE accounts SET"
                + " abalance = abalance + ? WHERE aid = ?` on random accounts, no think time. Each round: the"
                + " workload alone for the measure period, then the workload while `VirtualDatabase.verify` compares"
                + " `accounts` on the three replicas (no rate limit, chunks of 1,000 rows: per chunk one bound query"
                + " on the first replica and one count-and-hash query per replica, the replicas in parallel; SQLite"
                + " hashes each row with a Java function inside the engine, in the controller's process; a SQLite"
                + " replica's snapshot is renewed between chunks once it is a second old, see docs/verification.md). Writes/s"
                + " during verification are the workload's writes between the start and the end of `verify` over its"
                + " duration. Medians over the rounds; the controller, the three SQLite engines and the clients all"
                + " share this machine's cores.");
        s.text("Each round also runs the same verification limited to " + String.format(Locale.ROOT, "%,d",
                THROTTLE_ROWS_PER_SECOND) + " rows/s (`rowsPerSecond`, the schedule's and `verifyWith`'s throttle).");
        List<List<String>> table = new ArrayList<>();
        for (Round r : rounds) {
            table.add(row(String.valueOf(r.round()), r.writesAlone(), r.unthrottled(), r.throttled()));
        }
        table.add(row("median", median(rounds, Round::writesAlone),
                new Run(median(rounds, r -> r.unthrottled().seconds()), median(rounds, r -> r.unthrottled().rowsPerSecond()),
                        median(rounds, r -> r.unthrottled().writesDuring()), -1),
                new Run(median(rounds, r -> r.throttled().seconds()), median(rounds, r -> r.throttled().rowsPerSecond()),
                        median(rounds, r -> r.throttled().writesDuring()), -1)));
        s.table(List.of("round", "workload writes/s alone", "unthrottled: verify s", "rows/s", "writes/s during",
                "during / alone", "throttled: verify s", "rows/s", "writes/s during", "during / alone", "differences"), table);
        List<List<?>> csv = new ArrayList<>();
        for (Round r : rounds) {
            csv.add(List.of(r.round(), r.rows(), r.writesAlone(), r.unthrottled().seconds(), r.unthrottled().rowsPerSecond(),
                    r.unthrottled().writesDuring(), r.throttled().seconds(), r.throttled().rowsPerSecond(),
                    r.throttled().writesDuring(), r.unthrottled().differences() + r.throttled().differences()));
        }
        s.csv("verify.csv", List.of("round", "rows", "writes_per_s_alone", "verify_seconds", "rows_per_s",
                "writes_per_s_during", "throttled_verify_seconds", "throttled_rows_per_s", "throttled_writes_per_s_during",
                "differences"), csv);
    }

    private static List<String> row(String round, double alone, Run unthrottled, Run throttled) {
        return List.of(round, Section.num(alone),
                Section.num(unthrottled.seconds()), Section.num(unthrottled.rowsPerSecond()),
                Section.num(unthrottled.writesDuring()), Section.num(unthrottled.writesDuring() / alone),
                Section.num(throttled.seconds()), Section.num(throttled.rowsPerSecond()),
                Section.num(throttled.writesDuring()), Section.num(throttled.writesDuring() / alone),
                unthrottled.differences() < 0 ? "" : String.valueOf(unthrottled.differences() + throttled.differences()));
    }

    private static double median(List<Round> rounds, java.util.function.ToDoubleFunction<Round> f) {
        double[] d = rounds.stream().mapToDouble(f).sorted().toArray();
        return d.length % 2 == 1 ? d[d.length / 2] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2;
    }
}
