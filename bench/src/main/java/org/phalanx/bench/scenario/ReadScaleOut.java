package org.phalanx.bench.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.phalanx.bench.cluster.BenchController;
import org.phalanx.bench.cluster.EmulatedBackends;
import org.phalanx.bench.cluster.VirtualDatabaseSpec;
import org.phalanx.bench.harness.BenchContext;
import org.phalanx.bench.harness.Endpoint;
import org.phalanx.bench.harness.Scenario;
import org.phalanx.bench.harness.Summary;
import org.phalanx.bench.harness.Tables;
import org.phalanx.bench.harness.Variant;
import org.phalanx.bench.report.Section;
import org.phalanx.bench.workload.PointReads;
import org.phalanx.testkit.jdbc.CostModel;

/**
 * Scenario 2, read scale-out: point reads over N = 1, 2, 4, 8 emulated backends (RAIDb-1,
 * round robin), the same number of clients for every N. Target: throughput(N) at least
 * 0.9 x N x throughput(1), i.e. the controller is not the bottleneck.
 */
public final class ReadScaleOut implements Scenario {
    static final int SLOTS = 2;
    static final Duration SERVICE = Duration.ofMillis(5);
    static final int[] SIZES = {1, 2, 4, 8};
    static final int CLIENTS = 48;

    @Override
    public String id() {
        return "read-scale-out";
    }

    @Override
    public String title() {
        return "2. Read scale-out over N emulated backends";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        PointReads w = new PointReads(ctx.scale(20_000, 500));
        CostModel model = CostModel.builder().add("point-read", SERVICE, "^\\s*SELECT").add("other", Duration.ZERO, ".")
                .add("commit", Duration.ZERO, CostModel.COMMIT).add("rollback", Duration.ZERO, CostModel.ROLLBACK).build();
        EmulatedBackends backends = ctx.emulated("reads", EmulatedBackends.Engine.SQLITE, w, model, SLOTS);
        List<VirtualDatabaseSpec> vdbs = new ArrayList<>();
        for (int n : SIZES) {
            vdbs.add(Scaling.vdb("reads_n" + n, backends, n, 16, "replication", "RAIDb-1", "balancing", "round-robin"));
        }
        BenchController cp = ctx.controller("reads", vdbs);
        List<Variant> variants = new ArrayList<>();
        for (VirtualDatabaseSpec v : vdbs) {
            int n = v.backends().size();
            variants.add(new Variant("N=" + n, Endpoint.phalanx(cp, v.name(), false, v.backendNames()), w, CLIENTS,
                    Map.of("N", n)));
        }
        Map<Variant, Summary> r = ctx.alternate(variants);

        s.text("Prepared point reads (`SELECT abalance FROM accounts WHERE aid = ?`), " + CLIENTS + " clients for every"
                + " N, through one controller hosting a RAIDb-1 virtual database per N (round-robin reads). Backends:"
                + " SQLite files behind the emulated-capacity driver, each with " + SLOTS + " slots and "
                + SERVICE.toMillis() + " ms per read, so one backend serves at most " + SLOTS * 1000 / SERVICE.toMillis()
                + " reads/s and N backends N times that.");
        Scaling.costTable(s, model, SLOTS);
        Tables.variants(s, r.values(), List.of("N"));
        Tables.roundsCsv(s, "read-scale-out.csv", r.values(), List.of("N"));
        Map<String, List<Summary>> series = new LinkedHashMap<>();
        series.put("Phalanx RAIDb-1, round robin", List.copyOf(r.values()));
        s.chart("read-scale-out.png", Scaling.throughputChart("Read scale-out: point reads, " + CLIENTS + " clients",
                series, true, 0.9));

        Summary one = r.values().iterator().next();
        for (Summary x : r.values()) {
            int n = (Integer) x.variant().param("N");
            if (n == 1) {
                continue;
            }
            String name = "read throughput at N=" + n + " / (N × throughput at N=1)";
            boolean met = s.target(name, x.rate() / (n * one.rate()), "≥", 0.9, "");
            if (!met && ctx.profiling() && n == SIZES[SIZES.length - 1]) {
                s.profile(name, ctx.profile(x.variant(), "read scale-out at N=" + n));
            }
        }
    }
}
