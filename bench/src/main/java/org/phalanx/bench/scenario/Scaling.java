package org.phalanx.bench.scenario;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import org.knowm.xchart.XYChart;
import org.phalanx.bench.cluster.BackendSpec;
import org.phalanx.bench.cluster.EmulatedBackends;
import org.phalanx.bench.cluster.VirtualDatabaseSpec;
import org.phalanx.bench.harness.Summary;
import org.phalanx.bench.harness.Variant;
import org.phalanx.bench.report.Charts;
import org.phalanx.bench.report.Section;
import org.phalanx.testkit.jdbc.CostModel;

/** Helpers shared by the scale-out scenarios (N emulated backends per virtual database). */
final class Scaling {
    private Scaling() {
    }

    /** A virtual database over {@code n} fresh copies of the emulated backends' dataset. */
    static VirtualDatabaseSpec vdb(String name, EmulatedBackends backends, int n, int poolSize, String... requestManager)
            throws IOException {
        return vdb(name, backends, n, poolSize, i -> List.of(), requestManager);
    }

    /** The same, backend i holding every table but {@code without.apply(i)} (partial replication). */
    static VirtualDatabaseSpec vdb(String name, EmulatedBackends backends, int n, int poolSize,
                                   IntFunction<List<String>> without, String... requestManager) throws IOException {
        List<BackendSpec> list = backends.backends(name + "-b", n, poolSize, without);
        Map<String, String> rm = new LinkedHashMap<>();
        for (int i = 0; i + 1 < requestManager.length; i += 2) {
            rm.put(requestManager[i], requestManager[i + 1]);
        }
        return new VirtualDatabaseSpec(name, list, rm);
    }

    /** The cost model as a table: class, service time, SQL pattern. */
    static void costTable(Section s, CostModel model, int slots) {
        List<List<String>> rows = new ArrayList<>();
        for (CostModel.StatementClass c : model.classes()) {
            rows.add(List.of(c.name(), String.format(Locale.ROOT, "%.2f", c.serviceNanos() / 1e6),
                    "`" + c.pattern().replace("|", "\\|") + "`"));
        }
        s.text("Cost model of each emulated backend: **" + slots + " slot(s)**, service time per statement class"
                + " (first matching pattern wins; `@commit` is `Connection.commit()`):");
        s.table(List.of("statement class", "service ms", "pattern (regex on the SQL)"), rows);
    }

    /** Throughput against N for several series, with the ideal line from the first series' N=1 point. */
    static XYChart throughputChart(String title, Map<String, List<Summary>> series, boolean ideal, double efficiency) {
        XYChart chart = Charts.lines(title, "backends (N)", "requests/s");
        List<Summary> first = null;
        for (Map.Entry<String, List<Summary>> e : series.entrySet()) {
            List<Integer> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Summary sm : e.getValue()) {
                x.add((Integer) sm.variant().param("N"));
                y.add(sm.rate());
            }
            Charts.series(chart, e.getKey(), x, y);
            if (first == null) {
                first = e.getValue();
            }
        }
        if (ideal && first != null) {
            double base = first.get(0).rate();
            List<Integer> x = new ArrayList<>();
            List<Double> linear = new ArrayList<>();
            List<Double> target = new ArrayList<>();
            for (Summary sm : first) {
                int n = (Integer) sm.variant().param("N");
                x.add(n);
                linear.add(base * n);
                target.add(base * n * efficiency);
            }
            Charts.reference(chart, "N × throughput(1)", x, linear);
            Charts.reference(chart, efficiency + " × N × throughput(1) (target)", x, target);
        }
        return chart;
    }

    /** Variants whose param {@code key} equals {@code value}, in order. */
    static List<Summary> where(Map<Variant, Summary> r, String key, Object value) {
        return r.values().stream().filter(x -> value.equals(x.variant().param(key))).toList();
    }

    /** Work per request on the backends: replicated classes (written on every backend) vs the rest. */
    static double[] readWriteMs(Summary x, List<String> replicatedClasses) {
        double reads = 0;
        double writes = 0;
        for (Map.Entry<String, double[]> e : x.median().backendWork().entrySet()) {
            if (replicatedClasses.contains(e.getKey())) {
                writes += e.getValue()[1];
            } else {
                reads += e.getValue()[1];
            }
        }
        return new double[] {reads, writes};
    }
}
