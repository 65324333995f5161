package org.phalanx.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.phalanx.bench.cluster.BackendSpec;
import org.phalanx.bench.cluster.BenchController;
import org.phalanx.bench.cluster.VirtualDatabaseSpec;
import org.phalanx.bench.harness.BenchContext;
import org.phalanx.bench.harness.Scenario;
import org.phalanx.bench.report.Charts;
import org.phalanx.bench.report.Section;
import org.phalanx.bench.workload.PointReads;
import org.phalanx.controller.Controller;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.testkit.db.DatabaseServer;

/**
 * Recovery throughput (issue 6): dump and restore of a 1,000,000-row table with the portable
 * (DdlUtils) backuper and the native ones (SQLite's online backup; pg_dump and mysqldump when
 * the servers and tools are there), and the rate at which a backend catches up by replaying the
 * recovery log, with the file log and the JDBC log. Everything goes through the operator API of
 * a controller ({@link VirtualDatabase#backup}, {@link VirtualDatabase#restore},
 * {@link VirtualDatabase#enableBackend}), which for now is a Java API: the controller runs in the
 * harness's JVM here. Each round runs every operation once, in the same order; figures are
 * medians over the rounds. No target: the figures are reported.
 */
public final class DumpRestore implements Scenario {
    static final String TABLE = "accounts";

    /** One engine's virtual database: two backends holding the same table. */
    private record Engine(String label, String vdb, List<String> formats, Runnable cleanup) {
    }

    /** A database server engine: where its two backends' databases live, and its native dump. */
    private record Server(DatabaseServer server, String vdb, String loadOptions, String nativeFormat, List<String> tools) {

        /** Creates and loads the databases of b1 and b2, adds the virtual database; says whether the tools are there. */
        Engine prepare(String prefix, int rows, List<VirtualDatabaseSpec> vdbs, List<String> notes) throws SQLException {
            String label = server.product();
            String user = server.user();
            String password = server.password();
            String b1 = server.create(prefix + "b1");
            String b2 = server.create(prefix + "b2");
            load(b1 + loadOptions, user, password, rows);
            load(b2 + loadOptions, user, password, rows);
            vdbs.add(DumpRestore.vdb(vdb, b1, b2, user, password, "dir=\"log-" + vdb + "\""));
            List<String> formats = new ArrayList<>(List.of("portable"));
            String names = String.join(" and ", tools);
            if (tools.stream().allMatch(DumpRestore::onPath)) {
                formats.add(nativeFormat);
                notes.add(names + " are installed on this machine (found on the PATH): " + label + "'s native dump is"
                        + " measured.");
            } else {
                notes.add(names + " are not all installed on this machine: " + label + "'s native dump is not measured.");
            }
            return new Engine(label, vdb, formats, () -> {
                server.drop(prefix + "b1");
                server.drop(prefix + "b2");
            });
        }
    }

    /** One timed operation of one round. */
    private record Op(String engine, String operation, String format, int round, long rows, double seconds, long bytes) {
        double rate() {
            return rows / seconds;
        }
    }

    @Override
    public String id() {
        return "recovery";
    }

    @Override
    public String title() {
        return "8. Recovery: dump and restore of a 1,000,000-row table, log replay";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        int rows = ctx.scale(1_000_000, 2_000);
        int writes = ctx.scale(20_000, 200);
        String prefix = DatabaseServer.perProcess("phalanx_bench") + "_";
        Path dir = ctx.work("recovery");
        Files.createDirectories(dir);
        List<VirtualDatabaseSpec> vdbs = new ArrayList<>();
        List<Engine> engines = new ArrayList<>();
        List<String> notes = new ArrayList<>();

        // SQLite: two files with the table
        Path sqlite1 = dir.resolve("sqlite-b1.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite1)) {
            PointReads.loadAccounts(c, rows);
        }
        Path sqlite2 = dir.resolve("sqlite-b2.db");
        Files.copy(sqlite1, sqlite2, StandardCopyOption.REPLACE_EXISTING);
        vdbs.add(vdb("dump_sqlite", "jdbc:sqlite:" + sqlite1, "jdbc:sqlite:" + sqlite2, null, null, "dir=\"log-sqlite\""));
        engines.add(new Engine("SQLite", "dump_sqlite", List.of("portable", "sqlite-native"), () -> { }));

        Server pg = new Server(DatabaseServer.POSTGRESQL, "dump_pg", "?reWriteBatchedInserts=true", "pg_dump",
                List.of("pg_dump", "pg_restore"));
        if (ctx.postgresUnavailable().isEmpty()) {
            engines.add(pg.prepare(prefix, rows, vdbs, notes));
        } else {
            notes.add("PostgreSQL is not available: " + ctx.postgresUnavailable().get());
        }
        Server maria = new Server(DatabaseServer.MARIADB, "dump_mariadb", "", "mysqldump", List.of("mysqldump", "mysql"));
        var mariaProblem = DatabaseServer.MARIADB.unavailable();
        if (mariaProblem.isEmpty()) {
            engines.add(maria.prepare(prefix, rows, vdbs, notes));
        } else if (DatabaseServer.required()) {
            throw new IllegalStateException(mariaProblem.get() + " and " + BenchContext.REQUIRE_SERVERS + "=1");
        } else {
            notes.add("MariaDB is not available: " + mariaProblem.get());
        }

        // log replay: two small SQLite backends per log store
        int replayRows = ctx.scale(100_000, 1_000);
        Path r1 = dir.resolve("replay-b1.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + r1)) {
            PointReads.loadAccounts(c, replayRows);
        }
        Map<String, String> logs = new LinkedHashMap<>();
        logs.put("file log", "dir=\"log-replay-file\"");
        logs.put("JDBC log (SQLite)", "url=\"jdbc:sqlite:replay-log.db\"");
        List<String> replayVdbs = new ArrayList<>();
        int k = 0;
        for (Map.Entry<String, String> log : logs.entrySet()) {
            String name = "replay_" + (k++);
            Path f1 = dir.resolve(name + "-b1.db");
            Path f2 = dir.resolve(name + "-b2.db");
            Files.copy(r1, f1, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(r1, f2, StandardCopyOption.REPLACE_EXISTING);
            vdbs.add(vdb(name, "jdbc:sqlite:" + f1, "jdbc:sqlite:" + f2, null, null, log.getValue()));
            replayVdbs.add(name);
        }

        Path config = BenchController.writeConfig(ctx.work("controller"), vdbs, 0);
        Controller controller = Controller.fromConfig(config);
        List<Op> ops = new ArrayList<>();
        try {
            controller.start();
            for (int round = 1; round <= ctx.options().rounds(); round++) {
                for (Engine e : engines) {
                    VirtualDatabase vdb = controller.virtualDatabase(e.vdb());
                    for (String format : e.formats()) {
                        ops.addAll(dumpAndRestore(vdb, e.label(), format, round));
                    }
                }
                int i = 0;
                for (String log : logs.keySet()) {
                    String name = replayVdbs.get(i++);
                    ops.add(replay(controller, name, log, round, writes, replayRows));
                }
                System.out.println("[recovery] round " + round + "/" + ctx.options().rounds() + " done");
            }
        } finally {
            controller.stop();
            for (Engine e : engines) {
                e.cleanup().run();
            }
        }
        report(s, ops, rows, writes, replayRows, notes);
    }

    /** Dumps backend b1 (b2 for mysqldump, which needs a disabled source), restores onto b2, enables b2. */
    private static List<Op> dumpAndRestore(VirtualDatabase vdb, String engine, String format, int round)
            throws SQLException {
        String dump = format + "-" + round;
        vdb.disableBackend("b2");
        String source = format.equals("mysqldump") ? "b2" : "b1";
        long t0 = System.nanoTime();
        DumpInfo info = vdb.backup(source, dump, format.equals("portable") ? null : format, null);
        long t1 = System.nanoTime();
        DumpInfo restored = vdb.restore("b2", dump, true, null);
        long t2 = System.nanoTime();
        vdb.enableBackend("b2");
        vdb.deleteDump(dump);
        System.out.printf(Locale.ROOT, "[recovery] round %d %-10s %-13s dump %6.2f s, restore %6.2f s (%,d rows)%n",
                round, engine, format, (t1 - t0) / 1e9, (t2 - t1) / 1e9, info.totalRows());
        return List.of(new Op(engine, "dump", format, round, info.totalRows(), (t1 - t0) / 1e9, info.size()),
                new Op(engine, "restore", format, round, restored.totalRows(), (t2 - t1) / 1e9, info.size()));
    }

    /**
     * Disables b2 at a checkpoint, runs {@code writes} small updates through the controller (8
     * client connections, batches of 50), then times {@code enableBackend("b2")}: the replay of
     * those writes from the log and the final catch-up.
     */
    private static Op replay(Controller controller, String vdbName, String log, int round, int writes, int rows)
            throws Exception {
        VirtualDatabase vdb = controller.virtualDatabase(vdbName);
        vdb.disableBackend("b2");
        long before = vdb.lastPosition();
        String url = "jdbc:phalanx://127.0.0.1:" + controller.port() + "/" + vdbName;
        int threads = 8;
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> list = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread th = new Thread(() -> {
                SplittableRandom r = new SplittableRandom(round * 31L + id);
                try (Connection c = DriverManager.getConnection(url, BenchController.USER, BenchController.PASSWORD);
                     PreparedStatement ps = c.prepareStatement("UPDATE accounts SET abalance = abalance + ? WHERE aid = ?")) {
                    for (int i = id; i < writes; i += threads) {
                        ps.setInt(1, 1 + r.nextInt(100));
                        ps.setInt(2, 1 + r.nextInt(rows));
                        ps.addBatch();
                        if ((i / threads) % 50 == 49) {
                            ps.executeBatch();
                        }
                    }
                    ps.executeBatch();
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                }
            }, "replay-writer-" + t);
            th.start();
            list.add(th);
        }
        for (Thread th : list) {
            th.join();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        long entries = vdb.lastPosition() - before;
        long t0 = System.nanoTime();
        vdb.enableBackend("b2");
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "[recovery] round %d %-18s replay of %,d log entries: %6.2f s%n", round, log,
                entries, seconds);
        return new Op(log, "replay", "log", round, entries, seconds, 0);
    }

    private static void report(Section s, List<Op> ops, int rows, int writes, int replayRows, List<String> notes)
            throws java.io.IOException {
        s.text("Through the operator API of a controller (`VirtualDatabase.backup`, `restore`, `enableBackend`: a Java"
                + " API until the management issue puts it on JMX and the console, so this controller runs inside the"
                + " harness's JVM). Per engine, a virtual database over two backends `b1` and `b2` that hold the same"
                + " pgbench-like table, `accounts (aid INTEGER PRIMARY KEY, bid INTEGER, abalance INTEGER, filler"
                + " VARCHAR(84))`, with " + String.format(Locale.ROOT, "%,d rows (about %d MB of data)", rows,
                Math.round(rows * 100 / 1e6)) + ", and a file"
                + " recovery log. Each round, per format: `b2` is disabled; a dump is taken from the enabled `b1`"
                + " (from the controller's snapshot, while it could keep serving) — except `mysqldump`, which takes"
                + " its own snapshot and so dumps the disabled `b2` —; it is restored onto `b2` with `force` (the"
                + " table dropped and recreated; `sqlite-native` replaces the whole file); `b2` is enabled again."
                + " Rates are rows of the dump per second of the `backup` or `restore` call (dump files in the"
                + " scratch folder, on tmpfs); medians over the rounds.");
        for (String n : notes) {
            s.text(n);
        }
        List<List<String>> table = new ArrayList<>();
        Map<String, List<Op>> groups = new LinkedHashMap<>();
        for (Op o : ops) {
            if (!o.operation().equals("replay")) {
                groups.computeIfAbsent(o.engine() + "\t" + o.format(), x -> new ArrayList<>()).add(o);
            }
        }
        CategoryChart chart = Charts.bars("Dump and restore of " + String.format(Locale.ROOT, "%,d", rows) + " rows",
                "engine and format", "rows/s");
        List<String> labels = new ArrayList<>();
        List<Double> dumps = new ArrayList<>();
        List<Double> restores = new ArrayList<>();
        for (Map.Entry<String, List<Op>> g : groups.entrySet()) {
            String[] key = g.getKey().split("\t");
            List<Op> d = g.getValue().stream().filter(o -> o.operation().equals("dump")).toList();
            List<Op> r = g.getValue().stream().filter(o -> o.operation().equals("restore")).toList();
            double dumpRate = median(d, Op::rate);
            double restoreRate = median(r, Op::rate);
            table.add(List.of(key[0], "`" + key[1] + "`", Section.num(median(d, Op::seconds)), Section.num(dumpRate),
                    Section.num(min(d) ) + "–" + Section.num(max(d)), Section.num(median(r, Op::seconds)),
                    Section.num(restoreRate), Section.num(min(r)) + "–" + Section.num(max(r)),
                    Section.num(median(d, o -> o.bytes() / 1e6))));
            labels.add(key[0] + " " + key[1]);
            dumps.add(dumpRate);
            restores.add(restoreRate);
        }
        s.table(List.of("engine", "format", "dump s", "dump rows/s", "rounds min–max", "restore s", "restore rows/s",
                "rounds min–max", "dump size MB"), table);

        List<Op> replays = ops.stream().filter(o -> o.operation().equals("replay")).toList();
        s.text("**Log replay.** Per log store, a virtual database over two SQLite backends with the same table ("
                + String.format(Locale.ROOT, "%,d", replayRows) + " rows). Each round: `b2` is disabled (a"
                + " checkpoint), " + String.format(Locale.ROOT, "%,d", writes) + " auto-commit updates (`UPDATE"
                + " accounts SET abalance = abalance + ? WHERE aid = ?`, 8 connections, JDBC batches of 50) run"
                + " through the controller and are logged, then `enableBackend(\"b2\")` is timed: it replays the log"
                + " from the checkpoint onto `b2` and lets it join. Rate = log entries replayed per second of that"
                + " call (it includes the final catch-up, with writes paused; nothing else was running).");
        List<List<String>> replayTable = new ArrayList<>();
        for (String log : replays.stream().map(Op::engine).distinct().toList()) {
            List<Op> l = replays.stream().filter(o -> o.engine().equals(log)).toList();
            replayTable.add(List.of(log, String.format(Locale.ROOT, "%,d", l.get(0).rows()), Section.num(median(l, Op::seconds)),
                    Section.num(median(l, Op::rate)), Section.num(min(l)) + "–" + Section.num(max(l))));
            labels.add("replay, " + log);
            dumps.add(median(l, Op::rate));
            restores.add(0.0);
        }
        s.table(List.of("log store", "entries replayed", "enable s", "writes/s replayed", "rounds min–max"), replayTable);

        List<List<?>> csv = new ArrayList<>();
        for (Op o : ops) {
            csv.add(List.of(o.engine(), o.operation(), o.format(), o.round(), o.rows(), o.seconds(), o.rate(), o.bytes()));
        }
        s.csv("recovery.csv", List.of("engine", "operation", "format", "round", "rows", "seconds", "rows_per_s", "bytes"),
                csv);
        chart.addSeries("dump (replay: entries/s)", labels, dumps);
        chart.addSeries("restore", labels, restores);
        chart.getStyler().setXAxisLabelRotation(30);
        s.chart("recovery.png", chart);
    }

    private static VirtualDatabaseSpec vdb(String name, String url1, String url2, String user, String password,
                                           String log) {
        Map<String, String> rm = new LinkedHashMap<>();
        rm.put("replication", "RAIDb-1");
        return new VirtualDatabaseSpec(name, List.of(new BackendSpec("b1", url1, null, user, password, 4),
                new BackendSpec("b2", url2, null, user, password, 4)), rm)
                .withAfter("  <recoveryLog " + log + " dumpDir=\"dumps-" + name + "\"/>");
    }

    private static void load(String url, String user, String password, int rows) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            PointReads.loadAccounts(c, rows);
        }
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }

    private static double median(List<Op> ops, ToDoubleFunction<Op> f) {
        double[] d = ops.stream().mapToDouble(f).sorted().toArray();
        if (d.length == 0) {
            return Double.NaN;
        }
        return d.length % 2 == 1 ? d[d.length / 2] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2;
    }

    private static double min(List<Op> ops) {
        return ops.stream().mapToDouble(Op::rate).min().orElse(Double.NaN);
    }

    private static double max(List<Op> ops) {
        return ops.stream().mapToDouble(Op::rate).max().orElse(Double.NaN);
    }
}
