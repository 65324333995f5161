package org.phalanx.bench.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.phalanx.bench.report.Section;

/** The per-variant table and CSV every scenario shows (medians over the rounds). */
public final class Tables {
    private Tables() {
    }

    /**
     * One row per variant: its parameters, clients, throughput (median, and the rounds' min–max),
     * latency percentiles in ms, CPU per request by process, backend utilisation, other load.
     */
    public static void variants(Section s, Collection<Summary> summaries, List<String> params) {
        boolean db = summaries.stream().anyMatch(x -> !Double.isNaN(x.median().databaseCpuUs()));
        boolean ctl = summaries.stream().anyMatch(x -> !Double.isNaN(x.median().controllerCpuUs()));
        boolean util = summaries.stream().anyMatch(x -> !Double.isNaN(x.median().utilisation()));
        boolean engine = summaries.stream().anyMatch(x -> !Double.isNaN(x.median().engineCpuUs()));
        boolean cache = summaries.stream().anyMatch(x -> !Double.isNaN(x.median().cacheHitRate()));
        List<String> header = new ArrayList<>(List.of("variant"));
        header.addAll(params);
        header.addAll(List.of("clients", "req/s", "rounds min–max", "p50 ms", "p95 ms", "p99 ms", "client CPU µs/req"));
        if (ctl) {
            header.add("controller CPU µs/req (kernel share)");
        }
        if (engine) {
            header.add("of which emulated engines µs/req");
        }
        if (db) {
            header.add("PostgreSQL CPU µs/req");
        }
        if (util) {
            header.add("backend busy (min–max)");
        }
        if (cache) {
            header.add("cache hit rate");
        }
        header.addAll(List.of("other load / steal (cores)", "errors"));
        List<List<String>> rows = new ArrayList<>();
        for (Summary x : summaries) {
            RunResult m = x.median();
            List<String> row = new ArrayList<>(List.of(x.variant().name()));
            for (String p : params) {
                row.add(String.valueOf(x.variant().param(p)));
            }
            row.add(Integer.toString(x.variant().clients()));
            row.add(Section.num(m.rate()));
            row.add(Section.num(x.minRate()) + "–" + Section.num(x.maxRate()));
            row.add(Section.num(m.all().p50() / 1e3));
            row.add(Section.num(m.all().p95() / 1e3));
            row.add(Section.num(m.all().p99() / 1e3));
            row.add(Section.num(m.clientCpuUs()));
            if (ctl) {
                row.add(Section.num(m.controllerCpuUs()) + " (" + pct(m.controllerKernelShare()) + ")");
            }
            if (engine) {
                row.add(Section.num(m.engineCpuUs()));
            }
            if (db) {
                row.add(Section.num(m.databaseCpuUs()));
            }
            if (util) {
                row.add(Double.isNaN(m.utilisation()) ? "–" : pct(m.utilisation()) + " (" + pct(m.minUtilisation())
                        + "–" + pct(m.maxUtilisation()) + ")");
            }
            if (cache) {
                row.add(Double.isNaN(m.cacheHitRate()) ? "–" : Section.num(100 * m.cacheHitRate()) + "%");
            }
            row.add(Section.num(m.otherCores()) + " / " + Section.num(m.stealCores()));
            row.add(Long.toString(m.errors()));
            rows.add(row);
        }
        s.table(header, rows);
        for (Summary x : summaries) {
            if (x.median().firstError() != null) {
                s.text("Errors in " + x.variant().name() + ": `" + x.median().firstError().replace('`', '\'') + "`");
            }
        }
    }

    /** Every round of every variant, every request class: the raw material of the medians. */
    public static void roundsCsv(Section s, String file, Collection<Summary> summaries, List<String> params)
            throws IOException {
        List<String> header = new ArrayList<>(List.of("variant"));
        header.addAll(params);
        header.addAll(List.of("clients", "round", "class", "requests", "errors", "req_per_s", "p50_ms", "p95_ms", "p99_ms",
                "mean_ms", "client_cpu_us_per_req", "controller_cpu_us_per_req", "controller_kernel_share",
                "engine_cpu_us_per_req", "postgres_cpu_us_per_req",
                "backend_busy", "cache_hit_rate", "other_load_cores", "steal_cores"));
        List<List<?>> rows = new ArrayList<>();
        for (Summary x : summaries) {
            for (RunResult r : x.rounds()) {
                for (RunResult.ClassResult c : r.classes()) {
                    List<Object> row = new ArrayList<>(List.of(x.variant().name()));
                    for (String p : params) {
                        row.add(x.variant().param(p));
                    }
                    row.addAll(List.of(x.variant().clients(), r.round(), c.name(), c.count(), c.errors(), c.rate(),
                            c.p50() / 1e3, c.p95() / 1e3, c.p99() / 1e3, c.mean() / 1e3, r.clientCpuUs(),
                            r.controllerCpuUs(), r.controllerKernelShare(), r.engineCpuUs(), r.databaseCpuUs(), r.utilisation(), r.cacheHitRate(), r.otherCores(),
                            r.stealCores()));
                    rows.add(row);
                }
            }
        }
        s.csv(file, header, rows);
    }

    /** Per request class medians of one variant (for the web-like mixes). */
    public static void classes(Section s, Summary x) {
        List<List<String>> rows = new ArrayList<>();
        for (RunResult.ClassResult c : x.median().classes()) {
            if (c.count() == 0 && c.errors() == 0) {
                continue;
            }
            rows.add(List.of(c.name(), Section.num(c.rate()), Section.num(c.p50() / 1e3), Section.num(c.p95() / 1e3),
                    Section.num(c.p99() / 1e3), Long.toString(c.errors())));
        }
        s.table(List.of("request class", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors"), rows);
    }

    static String pct(double v) {
        return Double.isNaN(v) ? "–" : Math.round(v * 100) + "%";
    }
}
