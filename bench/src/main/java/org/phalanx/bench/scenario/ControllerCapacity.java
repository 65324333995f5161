package org.phalanx.bench.scenario;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.phalanx.bench.BenchContext;
import org.phalanx.bench.Endpoint;
import org.phalanx.bench.Scenario;
import org.phalanx.bench.Summary;
import org.phalanx.bench.Variant;
import org.phalanx.bench.cluster.ControllerProcess;
import org.phalanx.bench.cluster.EmulatedBackends;
import org.phalanx.bench.cluster.VirtualDatabaseSpec;
import org.phalanx.bench.emulation.CostModel;
import org.phalanx.bench.report.Section;
import org.phalanx.bench.report.Tables;
import org.phalanx.bench.workload.PointReads;

/**
 * Scenario 5, controller capacity: point reads at 32 clients over emulated backends with no
 * service time (each read only really runs on its SQLite file), so the controller, the client
 * and the cores are the limit. Reports requests/s and CPU time per request; no target yet (the
 * cache issue sets one for cached reads). A JFR profile of the controller is attached.
 */
public final class ControllerCapacity implements Scenario {
    static final int BACKENDS = 2;
    static final int CLIENTS = 32;

    @Override
    public String id() {
        return "controller-capacity";
    }

    @Override
    public String title() {
        return "5. Controller capacity: point reads, zero service time, " + CLIENTS + " clients";
    }

    @Override
    public void run(BenchContext ctx, Section s) throws Exception {
        PointReads w = new PointReads(ctx.scale(20_000, 500));
        EmulatedBackends backends = ctx.emulated("capacity", EmulatedBackends.Engine.SQLITE, w, CostModel.zero(), 64);
        VirtualDatabaseSpec vdb = Scaling.vdb("capacity", backends, BACKENDS, 40, "replication", "RAIDb-1",
                "balancing", "round-robin");
        ControllerProcess cp = ctx.controller("capacity", List.of(vdb));
        Variant v = new Variant("N=" + BACKENDS + " " + CLIENTS + " clients",
                Endpoint.phalanx(cp, vdb.name(), false, vdb.backendNames()), w, CLIENTS, Map.of("N", BACKENDS));
        Map<Variant, Summary> r = ctx.alternate(List.of(v));
        Summary x = r.get(v);

        s.text("Prepared point reads, " + CLIENTS + " clients, RAIDb-1 over " + BACKENDS + " emulated SQLite backends with"
                + " no service time (64 slots each, never full): each read only costs its real execution on a SQLite"
                + " file inside the controller process. Client JVM, controller and those reads share the 2 CPUs.");
        Tables.variants(s, r.values(), List.of("N"));
        Tables.roundsCsv(s, "controller-capacity.csv", r.values(), List.of("N"));
        double total = x.median().clientCpuUs() + x.median().controllerCpuUs();
        s.text(String.format(Locale.ROOT, "**The controller sustains %s point reads/s** on this 2-CPU machine while"
                        + " sharing it with the clients; CPU per request: controller %s µs (including the SQLite read"
                        + " itself), client JVM %s µs, %s µs in all. The machine was %s cores busy (%s of it"
                        + " outside the benchmark).", Section.num(x.rate()), Section.num(x.median().controllerCpuUs()),
                Section.num(x.median().clientCpuUs()), Section.num(total), Section.num(x.median().machineCores()),
                Section.num(x.median().otherCores())));
        if (ctx.profiling()) {
            s.text("Where the controller spends its CPU at capacity:");
            s.text(ctx.profile(v, "controller capacity").replace("### JFR", "#### JFR"));
        }
    }
}
