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
import org.phalanx.bench.workload.SmallWrites;
import org.phalanx.testkit.jdbc.CostModel;

/**
 * Scenario 3, write replication: small auto-commit updates over N = 1, 2, 4, 8 emulated
 * backends, wait policies {@code first} and {@code all}. Every backend applies every write, so
 * the cluster's write capacity is one backend's; the target says broadcasting costs little:
 * throughput at N=8 at least 0.9 x throughput at N=1, per policy.
 */
public final class WriteReplication implements Scenario {
    static final int SLOTS = 2;
    static final Duration SERVICE = Duration.ofMillis(1);
    static final int[] SIZES = {1, 2, 4, 8};
    static final int CLIENTS = 16;

    @Override
    public String id() {
        return "write-replication";
    }

    @Override
    public String title() {
        return "3. Write replication over N emulated backends, wait policies first and all";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        SmallWrites w = new SmallWrites(ctx.scale(20_000, 500));
        CostModel model = CostModel.builder().add("update", SERVICE, "^\\s*UPDATE").add("other", Duration.ZERO, ".")
                .add("commit", Duration.ZERO, CostModel.COMMIT).add("rollback", Duration.ZERO, CostModel.ROLLBACK).build();
        EmulatedBackends backends = ctx.emulated("writes", EmulatedBackends.Engine.SQLITE, w, model, SLOTS);
        List<VirtualDatabaseSpec> vdbs = new ArrayList<>();
        for (String policy : List.of("first", "all")) {
            for (int n : SIZES) {
                if (ctx.quick() && n != 1 && n != SIZES[SIZES.length - 1]) {
                    continue;
                }
                vdbs.add(Scaling.vdb("writes_" + policy + "_n" + n, backends, n, 16, "replication", "RAIDb-1",
                        "waitPolicy", policy));
            }
        }
        BenchController cp = ctx.controller("writes", vdbs);
        List<Variant> variants = new ArrayList<>();
        for (VirtualDatabaseSpec v : vdbs) {
            int n = v.backends().size();
            String policy = (String) v.requestManager().get("waitPolicy");
            variants.add(new Variant(policy + " N=" + n, Endpoint.phalanx(cp, v.name(), false, v.backendNames()), w,
                    CLIENTS, Map.of("policy", policy, "N", n)));
        }
        Map<Variant, Summary> r = ctx.alternate(variants);

        s.text("Auto-commit `UPDATE accounts SET abalance = abalance + ? WHERE aid = ?` on random keys, " + CLIENTS
                + " clients, RAIDb-1 over N emulated SQLite backends (" + SLOTS + " slots, " + SERVICE.toMillis()
                + " ms per update). `lockGranularity` is `auto`, which for SQLite-backed URLs locks the whole"
                + " database: the updates are totally ordered and each backend applies them one after another, so"
                + " one backend's capacity is about " + 1000 / SERVICE.toMillis() + " updates/s however many there"
                + " are; what N costs is the broadcast.");
        Scaling.costTable(s, model, SLOTS);
        List<String> params = List.of("policy", "N");
        Tables.variants(s, r.values(), params);
        Tables.roundsCsv(s, "write-replication.csv", r.values(), params);
        Map<String, List<Summary>> series = new LinkedHashMap<>();
        for (String policy : List.of("first", "all")) {
            series.put("waitPolicy=" + policy, Scaling.where(r, "policy", policy));
        }
        s.chart("write-replication.png", Scaling.throughputChart("Write replication: small updates, " + CLIENTS
                + " clients", series, false, 0));
        for (String policy : List.of("first", "all")) {
            List<Summary> list = Scaling.where(r, "policy", policy);
            Summary one = list.get(0);
            Summary last = list.get(list.size() - 1);
            int n = (Integer) last.variant().param("N");
            String name = "write throughput, waitPolicy=" + policy + ": N=" + n + " / N=1";
            boolean met = s.target(name, last.rate() / one.rate(), "≥", 0.9, "×");
            if (!met && ctx.profiling()) {
                s.profile(name, ctx.profile(last.variant(), "write replication, " + policy + ", N=" + n));
            }
        }
    }
}
