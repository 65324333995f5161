package org.phalanx.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
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
import org.phalanx.bench.report.Charts;
import org.phalanx.bench.report.Section;
import org.phalanx.bench.workload.PointReads;
import org.phalanx.testkit.jdbc.CostModel;

/**
 * Scenario 5, controller capacity: point reads at 32 clients over emulated backends with no
 * service time (each read only really runs on its SQLite file), so the controller, the client
 * and the cores are the limit; then the same with the result cache on (every key cached after
 * the warm-up). Reports requests/s and CPU time per request. Targets (the cache issue): at least
 * 30,000 cached point reads/s at 32 clients, and a cache hit answered at least 10 times faster
 * (p50, one client) than the same read from a SQLite backend through the controller: the
 * controller's answer time (request read to reply written), as the client-observed time of a
 * point read is mostly the loopback round trip, the same for both (reported beside it). A JFR
 * profile of the controller at capacity is attached.
 */
public final class ControllerCapacity implements Scenario {
    static final int BACKENDS = 2;
    static final int CLIENTS = 32;
    static final double CACHED_RATE = 30_000;
    static final double HIT_SPEEDUP = 10;

    @Override
    public String id() {
        return "controller-capacity";
    }

    @Override
    public String title() {
        return "5. Controller capacity: point reads, zero service time, " + CLIENTS + " clients, without and with the"
                + " result cache";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        int rows = ctx.scale(20_000, 500);
        PointReads w = new PointReads(rows);
        // every key fits: after the warm-up each read is a hit
        String cache = "  <cache maxEntries=\"" + 2 * rows + "\" maxMemory=\"256MB\" granularity=\"value\"/>";
        EmulatedBackends backends = ctx.emulated("capacity", EmulatedBackends.Engine.SQLITE, w, CostModel.zero(), 64);
        VirtualDatabaseSpec plain = Scaling.vdb("capacity", backends, BACKENDS, 40, "replication", "RAIDb-1",
                "balancing", "round-robin");
        VirtualDatabaseSpec cached = Scaling.vdb("capacity_cached", backends, BACKENDS, 40, "replication", "RAIDb-1",
                "balancing", "round-robin").withAfter(cache);
        Path dir = ctx.work("sqlite");
        Files.createDirectories(dir);
        Path file = dir.resolve("accounts.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            w.load(c);
        }
        Map<String, String> single = new LinkedHashMap<>(Map.of("replication", "SingleDB"));
        VirtualDatabaseSpec sqlite = new VirtualDatabaseSpec("point_sqlite", List.of(new BackendSpec("sqlite",
                "jdbc:sqlite:" + file, null, null, null, 8)), single);
        VirtualDatabaseSpec sqliteCached = new VirtualDatabaseSpec("point_sqlite_cached", List.of(new BackendSpec("sqlite",
                "jdbc:sqlite:" + file, null, null, null, 8)), single).withAfter(cache);
        BenchController cp = ctx.controller("capacity", List.of(plain, cached, sqlite, sqliteCached));

        Variant v = new Variant("N=" + BACKENDS + " " + CLIENTS + " clients",
                Endpoint.phalanx(cp, plain.name(), false, plain.backendNames()), w, CLIENTS,
                Map.of("N", BACKENDS, "cache", "off"));
        Variant vc = new Variant("N=" + BACKENDS + " " + CLIENTS + " clients cached",
                Endpoint.phalanx(cp, cached.name(), false, cached.backendNames()), w, CLIENTS,
                Map.of("N", BACKENDS, "cache", "on"));
        Variant miss1 = new Variant("SQLite 1 client", Endpoint.phalanx(cp, sqlite.name(), false, List.of()), w, 1,
                Map.of("N", 1, "cache", "off"));
        Variant hit1 = new Variant("SQLite 1 client cached", Endpoint.phalanx(cp, sqliteCached.name(), false, List.of()),
                w, 1, Map.of("N", 1, "cache", "on"));
        Map<Variant, Summary> r = ctx.alternate(List.of(v, vc, miss1, hit1));
        Summary x = r.get(v);
        Summary xc = r.get(vc);

        s.text("Prepared point reads (`SELECT abalance FROM accounts WHERE aid = ?` on " + String.format(Locale.ROOT,
                "%,d", rows) + " keys), " + CLIENTS + " clients, RAIDb-1 over " + BACKENDS + " emulated SQLite backends"
                + " with no service time (64 slots each, never full): each read only costs its real execution on a"
                + " SQLite file inside the controller process. The cached variant is the same virtual database with"
                + " `" + cache.strip().replace("|", "\\|") + "`: every key fits, so after the warm-up nearly every"
                + " read is a hit. The one-client pair compares a hit with the same read served by a real SQLite"
                + " backend (one file, `SingleDB`, no emulation) through the controller. Client JVM, controller and"
                + " those reads share the 2 CPUs.");
        Tables.variants(s, r.values(), List.of("N", "cache"));
        Tables.roundsCsv(s, "controller-capacity.csv", r.values(), List.of("N", "cache"));
        s.text(String.format(Locale.ROOT, "**The controller sustains %s point reads/s** without cache and **%s with"
                        + " the cache** (hit rate %s) on this 2-CPU machine while sharing it with the clients. CPU per"
                        + " request without cache: controller %s µs (including the SQLite read itself), client JVM %s µs;"
                        + " with the cache: controller %s µs, client JVM %s µs. The machine was %s / %s cores busy (%s /"
                        + " %s of it outside the benchmark).", Section.num(x.rate()), Section.num(xc.rate()),
                pct(xc.median()), Section.num(x.median().controllerCpuUs()), Section.num(x.median().clientCpuUs()),
                Section.num(xc.median().controllerCpuUs()), Section.num(xc.median().clientCpuUs()),
                Section.num(x.median().machineCores()), Section.num(xc.median().machineCores()),
                Section.num(x.median().otherCores()), Section.num(xc.median().otherCores())));
        Summary m1 = r.get(miss1);
        Summary h1 = r.get(hit1);
        s.text(String.format(Locale.ROOT, "One client: the controller answers a read served by the SQLite backend in"
                        + " %s µs at the median and a cache hit in %s µs (hit rate %s), from the request read to the"
                        + " reply written (`AnswerTimeMicros` on JMX). Seen by the client, with the round trip to the"
                        + " controller (see the hop-cost scenario: loopback, wake-ups, protocol), which a hit cannot"
                        + " avoid: %s µs and %s µs at the median (%s×).", Section.num(m1.median().answerP50Us()),
                Section.num(h1.median().answerP50Us()), pct(h1.median()), Section.num(m1.all().p50()),
                Section.num(h1.all().p50()), Section.num(m1.all().p50() / h1.all().p50())));
        CategoryChart chart = Charts.bars("Point reads: throughput at " + CLIENTS + " clients", "", "requests/s");
        chart.addSeries("throughput", List.of("no cache", "cache"), List.of(x.rate(), xc.rate()));
        s.chart("controller-capacity.png", chart);

        String rateTarget = "cached point reads, " + CLIENTS + " clients: requests/s";
        if (!s.target(rateTarget, xc.rate(), "≥", CACHED_RATE, "") && ctx.profiling()) {
            s.profile(rateTarget, ctx.profile(vc, "cached point reads at capacity"));
        }
        String hitTarget = "one client, controller's answer time p50: read from the SQLite backend / cache hit";
        if (!s.target(hitTarget, m1.median().answerP50Us() / h1.median().answerP50Us(), "≥", HIT_SPEEDUP, "×")
                && ctx.profiling()) {
            s.profile(hitTarget, ctx.profile(hit1, "cache hits, one client"));
        }
        if (s.targets().stream().anyMatch(t -> !t.met())) {
            s.analysis(analysis(r));
        }
        if (ctx.profiling()) {
            s.text("Where the controller spends its CPU at capacity without cache:");
            s.text(ctx.profile(v, "controller capacity").replace("### JFR", "#### JFR"));
        }
    }

    private static String analysis(Map<Variant, Summary> r) {
        StringBuilder a = new StringBuilder("Controller capacity targets missed. Per variant (CPU per request; machine ="
                + " CPU cores busy on this 2-CPU machine, of which other = outside the benchmark):\n\n| variant | req/s | p50"
                + " µs | hit rate | controller CPU µs (kernel share) | client CPU µs | machine cores (other) |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
        for (Summary x : r.values()) {
            RunResult m = x.median();
            a.append("| ").append(x.variant().name()).append(" | ").append(Section.num(m.rate())).append(" | ")
                    .append(Section.num(m.all().p50())).append(" | ").append(pct(m)).append(" | ")
                    .append(Section.num(m.controllerCpuUs())).append(" (")
                    .append(Math.round(100 * m.controllerKernelShare())).append("%) | ")
                    .append(Section.num(m.clientCpuUs())).append(" | ").append(Section.num(m.machineCores()))
                    .append(" (").append(Section.num(m.otherCores())).append(") |\n");
        }
        a.append("\nAt " + CLIENTS + " clients the two CPUs are the limit: a hit still costs the client's driver, the"
                + " socket round trip on both sides and the controller's request handling (parse lookup, reply"
                + " encoding), which the profile shows; at one client the median is mostly the loopback round trip and"
                + " thread wake-ups, which are the same for a hit and a miss.");
        return a.toString();
    }

    private static String pct(RunResult m) {
        return Double.isNaN(m.cacheHitRate()) ? "–" : Section.num(100 * m.cacheHitRate()) + "%";
    }
}
