package org.phalanx.bench.harness;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.phalanx.bench.cluster.CacheCounters;
import org.phalanx.bench.workload.Workload;
import org.phalanx.testkit.jdbc.EmulationStats;

/**
 * The workload driver: N client threads, each with its own connection, run requests back to
 * back (a closed loop, no think time), or, for a variant with a think time, each pausing a
 * negative-exponential time of that mean between requests (cut at ten times the mean, as TPC-W's
 * emulated browsers think). After the warm-up the recording switches on for the
 * measured period; a request counts if it completes while recording is on. Latency is taken
 * around one request (one interaction, for the web-like workloads) with System.nanoTime and kept
 * per thread in HdrHistograms (3 significant digits), merged at the end.
 */
public final class ClosedLoop {
    private static final long JOIN_MILLIS = 60_000;
    /** The longest pause, in mean think times (TPC-W cuts its think times at 10 × their mean). */
    private static final double THINK_CUT = 10;

    private ClosedLoop() {
    }

    /** Warm-up and measured period of one run. */
    public record Timing(Duration warmup, Duration measure) {
    }

    /** Called when the measured period starts and ends (e.g. to read the controller's per-thread CPU). */
    public interface Hook {
        void measuring();

        void measured();
    }

    public static RunResult run(Variant v, Timing timing, int round, long seed) throws Exception {
        return run(v, timing, round, seed, null);
    }

    public static RunResult run(Variant v, Timing timing, int round, long seed, Hook hook) throws Exception {
        Workload w = v.workload();
        int classes = w.requestClasses().size();
        int n = v.clients();
        Endpoint ep = v.endpoint();
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> setupFailure = new AtomicReference<>();
        AtomicReference<String> firstError = new AtomicReference<>();
        State state = new State();
        Histogram[][] histograms = new Histogram[n][classes];
        long[][] errors = new long[n][classes];
        long[] warmupErrors = new long[n];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int id = t;
            for (int k = 0; k < classes; k++) {
                histograms[t][k] = new Histogram(3);
            }
            Thread thread = new Thread(() -> {
                Workload.Client client;
                Connection c;
                try {
                    c = ep.connect();
                    client = w.client(c, seed * 1_000_003L + id);
                } catch (Throwable e) {
                    setupFailure.compareAndSet(null, e);
                    ready.countDown();
                    return;
                }
                ready.countDown();
                try (c) {
                    go.await();
                    Histogram[] h = histograms[id];
                    long[] err = errors[id];
                    Think think = new Think(v.think(), seed * 1_000_003L + id);
                    think.pause(state); // a first pause, so that the clients do not all start at once
                    while (!state.stop) {
                        int k = client.next();
                        long t0 = System.nanoTime();
                        boolean ok = true;
                        try {
                            client.execute(k);
                        } catch (SQLException | RuntimeException e) {
                            ok = false;
                            firstError.compareAndSet(null, w.requestClasses().get(k) + ": " + e);
                        }
                        long t1 = System.nanoTime();
                        if (state.recording) {
                            if (ok) {
                                h[k].recordValue(t1 - t0);
                            } else {
                                err[k]++;
                            }
                        } else if (!ok) {
                            warmupErrors[id]++;
                        }
                        think.pause(state);
                    }
                    client.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (SQLException e) {
                    // closing the client or the connection failed; the results stand
                }
            }, "client-" + id);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        ready.await();
        if (setupFailure.get() != null) {
            state.stop = true;
            go.countDown();
            joinAll(threads);
            throw new IllegalStateException("variant " + v.name() + ": a client could not start: " + setupFailure.get(),
                    setupFailure.get());
        }
        go.countDown();
        sleep(timing.warmup());
        Map<String, EmulationStats.Counters> emuBefore = ep.controller() == null ? Map.of() : ep.controller().emulationStats();
        CacheCounters.Published publishedBefore = published(ep);
        if (hook != null) {
            hook.measuring();
        }
        Cpu.Snapshot before = Cpu.snapshot(ep.controllerPid(), ep.postgres());
        state.recording = true;
        sleep(timing.measure());
        state.recording = false;
        Cpu.Snapshot after = Cpu.snapshot(ep.controllerPid(), ep.postgres());
        if (hook != null) {
            hook.measured();
        }
        Map<String, EmulationStats.Counters> emuAfter = ep.controller() == null ? Map.of() : ep.controller().emulationStats();
        CacheCounters.Published publishedAfter = published(ep);
        state.stop = true;
        List<String> stuck = joinAll(threads);
        if (!stuck.isEmpty()) {
            throw new IllegalStateException("variant " + v.name() + ": " + stuck.size()
                    + " client(s) did not finish their request within " + JOIN_MILLIS / 1000 + " s after the run");
        }

        double seconds = (after.wallNanos() - before.wallNanos()) / 1e9;
        List<RunResult.ClassResult> results = new ArrayList<>();
        Histogram all = new Histogram(3);
        long totalErrors = 0;
        for (int k = 0; k < classes; k++) {
            Histogram merged = new Histogram(3);
            long err = 0;
            for (int t = 0; t < n; t++) {
                merged.add(histograms[t][k]);
                err += errors[t][k];
            }
            all.add(merged);
            totalErrors += err;
            results.add(classResult(w.requestClasses().get(k), merged, err, seconds));
        }
        results.add(classResult("all", all, totalErrors, seconds));
        long requests = all.getTotalCount();
        double perRequest = requests == 0 ? Double.NaN : 1.0 / requests;
        double client = (after.client() - before.client()) / 1e3 * perRequest;
        double controller = ep.controller() == null ? Double.NaN
                : (after.controller() - before.controller()) / 1e3 * perRequest;
        long controllerNanos = after.controller() - before.controller();
        double kernelShare = ep.controller() == null || controllerNanos == 0 ? Double.NaN
                : (after.controllerKernel() - before.controllerKernel()) / (double) controllerNanos;
        double database = ep.postgres() ? (after.database() - before.database()) / 1e3 * perRequest : Double.NaN;
        double machine = (after.machineBusy() - before.machineBusy()) / 1e9 / seconds;
        double ours = ((after.client() - before.client()) + (after.controller() - before.controller())
                + (after.database() - before.database())) / 1e9 / seconds;
        double[] util = utilisation(ep.emulatedBackends(), emuBefore, emuAfter, seconds);
        Map<String, double[]> work = work(ep.emulatedBackends(), emuBefore, emuAfter, requests);
        double engine = engineCpu(ep.emulatedBackends(), emuBefore, emuAfter) / 1e3 * perRequest;
        long warmErrors = 0;
        for (long e : warmupErrors) {
            warmErrors += e;
        }
        String error = firstError.get();
        if (error != null && warmErrors + totalErrors > 0) {
            error = (warmErrors + totalErrors) + " failed request(s), first: " + error;
        }
        return new RunResult(v.name(), round, seconds, requests, totalErrors, requests / seconds, results, client,
                controller, kernelShare, engine, database, machine, Math.max(0, machine - ours),
                (after.steal() - before.steal()) / 1e9 / seconds, util[0], util[1], util[2],
                hitRate(ep, publishedBefore, publishedAfter), answerP50Us(ep, publishedBefore, publishedAfter),
                work, error);
    }

    /** What the endpoint's controller last published; null for direct variants. */
    private static CacheCounters.Published published(Endpoint ep) {
        return ep.controller() == null ? null : ep.controller().published();
    }

    /** The hit rate of the endpoint's result cache over the period; NaN without one. */
    private static double hitRate(Endpoint ep, CacheCounters.Published before, CacheCounters.Published after) {
        CacheCounters.Counters end = after == null ? null : after.caches().get(ep.vdb());
        return end == null ? Double.NaN : end.hitRate(before.caches().get(ep.vdb()));
    }

    /** The controller's median answer time over the period; NaN for direct variants. */
    private static double answerP50Us(Endpoint ep, CacheCounters.Published before, CacheCounters.Published after) {
        return after == null ? Double.NaN
                : CacheCounters.p50Micros(before.answers().get(ep.vdb()), after.answers().get(ep.vdb()));
    }

    private static RunResult.ClassResult classResult(String name, Histogram h, long errors, double seconds) {
        long count = h.getTotalCount();
        if (count == 0) {
            return new RunResult.ClassResult(name, 0, errors, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new RunResult.ClassResult(name, count, errors, count / seconds, h.getValueAtPercentile(50) / 1e3,
                h.getValueAtPercentile(95) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getMean() / 1e3);
    }

    /** Mean, min and max busy share of the slots of the named emulated backends. */
    private static double[] utilisation(List<String> names, Map<String, EmulationStats.Counters> before,
                                        Map<String, EmulationStats.Counters> after, double seconds) {
        if (names.isEmpty() || after.isEmpty()) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        double sum = 0;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (String name : names) {
            EmulationStats.Counters a = after.get(name);
            EmulationStats.Counters b = before.get(name);
            double busy = a == null ? 0 : (a.busyNanos() - (b == null ? 0 : b.busyNanos())) / 1e9;
            double u = a == null ? 0 : busy / (a.slots() * seconds);
            sum += u;
            min = Math.min(min, u);
            max = Math.max(max, u);
        }
        return new double[] {sum / names.size(), min, max};
    }

    /** Nanoseconds of real-engine CPU over the named backends (NaN if there are none). */
    private static double engineCpu(List<String> names, Map<String, EmulationStats.Counters> before,
                                    Map<String, EmulationStats.Counters> after) {
        if (names.isEmpty() || after.isEmpty()) {
            return Double.NaN;
        }
        long sum = 0;
        for (String name : names) {
            EmulationStats.Counters a = after.get(name);
            EmulationStats.Counters b = before.get(name);
            if (a != null) {
                sum += a.engineCpuNanos() - (b == null ? 0 : b.engineCpuNanos());
            }
        }
        return sum;
    }

    /** Per statement class over the named backends: {executions per request, busy ms per request}. */
    private static Map<String, double[]> work(List<String> names, Map<String, EmulationStats.Counters> before,
                                              Map<String, EmulationStats.Counters> after, long requests) {
        Map<String, double[]> work = new TreeMap<>();
        if (requests == 0) {
            return work;
        }
        for (String name : names) {
            EmulationStats.Counters a = after.get(name);
            if (a == null) {
                continue;
            }
            EmulationStats.Counters b = before.get(name);
            a.perClass().forEach((k, v) -> {
                long[] old = b == null ? null : b.perClass().get(k);
                double[] acc = work.computeIfAbsent(k, x -> new double[2]);
                acc[0] += (v[0] - (old == null ? 0 : old[0])) / (double) requests;
                acc[1] += (v[1] - (old == null ? 0 : old[1])) / 1e6 / requests;
            });
        }
        return work;
    }

    private static List<String> joinAll(List<Thread> threads) throws InterruptedException {
        long deadline = System.currentTimeMillis() + JOIN_MILLIS;
        List<String> stuck = new ArrayList<>();
        for (Thread t : threads) {
            t.join(Math.max(1, deadline - System.currentTimeMillis()));
            if (t.isAlive()) {
                stuck.add(t.getName());
                t.interrupt();
            }
        }
        return stuck;
    }

    private static void sleep(Duration d) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(d.toNanos());
    }

    /** A client's pauses between requests: none, or negative-exponential of the variant's mean. */
    private static final class Think {
        private final long meanNanos;
        private final SplittableRandom random;

        Think(Duration mean, long seed) {
            this.meanNanos = mean.toNanos();
            this.random = new SplittableRandom(seed);
        }

        void pause(State state) throws InterruptedException {
            if (meanNanos == 0) {
                return;
            }
            double pause = Math.min(-Math.log(1 - random.nextDouble()), THINK_CUT) * meanNanos;
            long end = System.nanoTime() + (long) pause;
            for (long left = (long) pause; left > 0 && !state.stop; left = end - System.nanoTime()) {
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
            }
        }
    }

    private static final class State {
        volatile boolean recording;
        volatile boolean stop;
    }
}
