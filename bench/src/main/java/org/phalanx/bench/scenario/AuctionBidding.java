package org.phalanx.bench.scenario;

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
import org.phalanx.bench.workload.Auction;
import org.phalanx.testkit.jdbc.CostModel;

/**
 * RUBiS-like auction site, bidding mix (80% read-only interactions, 20% read-write), over
 * N = 1, 2, 4 emulated backends with full replication. Reported, no target.
 */
public final class AuctionBidding implements Scenario {
    static final int SLOTS = 2;
    static final int[] SIZES = {1, 2, 4};
    static final int CLIENTS_PER_BACKEND = 8;

    @Override
    public String id() {
        return "auction";
    }

    @Override
    public String title() {
        return "6. RUBiS-like auction, bidding mix, over N emulated backends (no target)";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        Auction.Dataset data = new Auction.Dataset(ctx.scale(1000, 50), ctx.scale(2000, 100));
        Auction w = new Auction(data);
        CostModel model = ctx.quick() ? Auction.costModel().scaled(0.1) : Auction.costModel();
        EmulatedBackends backends = ctx.emulated("auction", EmulatedBackends.Engine.H2, w, model, SLOTS);
        List<VirtualDatabaseSpec> vdbs = new ArrayList<>();
        for (int n : SIZES) {
            vdbs.add(Scaling.vdb("rubis_n" + n, backends, n, CLIENTS_PER_BACKEND * n + 4, "replication", "RAIDb-1",
                    "waitPolicy", "first", "balancing", "least-pending", "lockGranularity", "table"));
        }
        BenchController cp = ctx.controller("auction", vdbs);
        List<Variant> variants = new ArrayList<>();
        for (VirtualDatabaseSpec v : vdbs) {
            int n = v.backends().size();
            variants.add(new Variant("N=" + n, Endpoint.phalanx(cp, v.name(), false, v.backendNames()), w,
                    CLIENTS_PER_BACKEND * n, Map.of("N", n)));
        }
        Map<Variant, Summary> r = ctx.alternate(variants);

        s.text("Twelve RUBiS-style interactions in the bidding mix (80% read-only: browse, search by category and"
                + " region, view items, bid histories and users; 20% read-write: store a bid or a comment, each a"
                + " transaction, register an item or a user) over " + data + ". " + CLIENTS_PER_BACKEND + " clients per"
                + " backend, RAIDb-1, `first`, `least-pending`, `lockGranularity=\"table\"`, in-memory H2"
                + " databases behind the emulated-capacity driver.");
        Scaling.costTable(s, model, SLOTS);
        Tables.variants(s, r.values(), List.of("N"));
        Tables.roundsCsv(s, "auction.csv", r.values(), List.of("N"));
        Map<String, List<Summary>> series = new LinkedHashMap<>();
        series.put("bidding mix", List.copyOf(r.values()));
        s.chart("auction.png", Scaling.throughputChart("RUBiS-like bidding mix", series, true, 0.9));
        Summary one = r.values().iterator().next();
        List<String> row = new ArrayList<>(List.of("speedup"));
        List<String> header = new ArrayList<>(List.of(""));
        for (Summary x : r.values()) {
            header.add("N=" + x.variant().param("N"));
            row.add(Section.num(x.rate() / one.rate()) + "×");
        }
        s.table(header, List.of(row));
        List<Summary> all = List.copyOf(r.values());
        s.text("Per interaction at N=" + SIZES[SIZES.length - 1] + ":");
        Tables.classes(s, all.get(all.size() - 1));
    }
}
