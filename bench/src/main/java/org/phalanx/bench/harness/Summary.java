package org.phalanx.bench.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * Medians over the rounds of one variant: each figure is the median of that figure over the
 * rounds (so p99 is the median of the rounds' p99s). Also keeps the rounds' spread of the rate.
 */
public record Summary(Variant variant, List<RunResult> rounds, RunResult median, double minRate, double maxRate) {

    public static Summary of(Variant v, List<RunResult> rounds) {
        RunResult first = rounds.get(0);
        List<RunResult.ClassResult> classes = new ArrayList<>();
        for (int i = 0; i < first.classes().size(); i++) {
            int k = i;
            classes.add(new RunResult.ClassResult(first.classes().get(i).name(),
                    Math.round(median(rounds, r -> r.classes().get(k).count())),
                    Math.round(median(rounds, r -> r.classes().get(k).errors())),
                    median(rounds, r -> r.classes().get(k).rate()),
                    median(rounds, r -> r.classes().get(k).p50()),
                    median(rounds, r -> r.classes().get(k).p95()),
                    median(rounds, r -> r.classes().get(k).p99()),
                    median(rounds, r -> r.classes().get(k).mean())));
        }
        String error = null;
        for (RunResult r : rounds) {
            if (r.firstError() != null) {
                error = r.firstError();
            }
        }
        RunResult m = new RunResult(v.name(), -1, median(rounds, RunResult::seconds),
                Math.round(median(rounds, RunResult::requests)), rounds.stream().mapToLong(RunResult::errors).sum(),
                median(rounds, RunResult::rate), classes, median(rounds, RunResult::clientCpuUs),
                median(rounds, RunResult::controllerCpuUs), median(rounds, RunResult::controllerKernelShare), median(rounds, RunResult::engineCpuUs),
                median(rounds, RunResult::databaseCpuUs),
                median(rounds, RunResult::machineCores), median(rounds, RunResult::otherCores),
                median(rounds, RunResult::stealCores),
                median(rounds, RunResult::utilisation), median(rounds, RunResult::minUtilisation),
                median(rounds, RunResult::maxUtilisation), median(rounds, RunResult::cacheHitRate),
                median(rounds, RunResult::answerP50Us), meanWork(rounds),
                error);
        double min = rounds.stream().mapToDouble(RunResult::rate).min().orElse(Double.NaN);
        double max = rounds.stream().mapToDouble(RunResult::rate).max().orElse(Double.NaN);
        return new Summary(v, List.copyOf(rounds), m, min, max);
    }

    public double rate() {
        return median.rate();
    }

    public RunResult.ClassResult all() {
        return median.all();
    }

    /** Per-class backend work averaged over the rounds. */
    static Map<String, double[]> meanWork(List<RunResult> rounds) {
        Map<String, double[]> sum = new TreeMap<>();
        for (RunResult r : rounds) {
            r.backendWork().forEach((k, v) -> {
                double[] acc = sum.computeIfAbsent(k, x -> new double[2]);
                acc[0] += v[0] / rounds.size();
                acc[1] += v[1] / rounds.size();
            });
        }
        return sum;
    }

    static <T> double median(List<T> values, ToDoubleFunction<T> f) {
        double[] d = values.stream().mapToDouble(f).filter(x -> !Double.isNaN(x)).toArray();
        if (d.length == 0) {
            return Double.NaN;
        }
        Arrays.sort(d);
        int n = d.length;
        return n % 2 == 1 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
    }
}
