package org.phalanx.bench;

import java.util.ArrayList;
import java.util.List;
import org.phalanx.bench.harness.Scenario;
import org.phalanx.bench.scenario.AuctionBidding;
import org.phalanx.bench.scenario.AuctionCache;
import org.phalanx.bench.scenario.BatchInserts;
import org.phalanx.bench.scenario.BookstoreMixes;
import org.phalanx.bench.scenario.BookstorePartial;
import org.phalanx.bench.scenario.ControllerCapacity;
import org.phalanx.bench.scenario.DirectVsPhalanx;
import org.phalanx.bench.scenario.Distribution;
import org.phalanx.bench.scenario.DumpRestore;
import org.phalanx.bench.scenario.HopCost;
import org.phalanx.bench.scenario.IsolationCost;
import org.phalanx.bench.scenario.MixedAgreement;
import org.phalanx.bench.scenario.ReadScaleOut;
import org.phalanx.bench.scenario.TranslationCost;
import org.phalanx.bench.scenario.TreeDepth;
import org.phalanx.bench.scenario.Verification;
import org.phalanx.bench.scenario.WriteReplication;

/** Every scenario of the suite, in RESULTS.md order. A new scenario is one class added here. */
public final class Scenarios {
    private Scenarios() {
    }

    public static List<Scenario> all() {
        return List.of(new HopCost(), new ReadScaleOut(), new WriteReplication(), new BookstoreMixes(), new BookstorePartial(),
                new ControllerCapacity(), new AuctionBidding(), AuctionCache.databaseBound(),
                AuctionCache.realSqlite(), new DumpRestore(), new TreeDepth(),
                new MixedAgreement(), new IsolationCost(), new DirectVsPhalanx(),
                new BatchInserts(), new Distribution(), new TranslationCost(), new Verification());
    }

    /** The scenarios named on the command line ("all" for every one). */
    public static List<Scenario> select(List<String> ids) {
        if (ids.contains("all")) {
            return all();
        }
        List<Scenario> chosen = new ArrayList<>();
        for (String id : ids) {
            Scenario s = all().stream().filter(x -> x.id().equals(id.trim())).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no scenario '" + id + "' (see --list)"));
            chosen.add(s);
        }
        return chosen;
    }
}
