package org.phalanx.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Profiles the controller process with Java Flight Recorder while a load runs: starts a
 * recording with {@code jcmd <pid> JFR.start settings=profile}, runs the load, stops it, and
 * summarises the file the way {@code jfr print --events jdk.ExecutionSample} would be read by
 * hand: the most frequent top frames of the CPU samples, the Phalanx frame nearest the top,
 * CPU samples per thread kind, and where threads parked longest (lock and queue waits).
 */
public final class Profiler {
    private static final int TOP = 12;

    private Profiler() {
    }

    /** A load to profile; it calls the hook when its measured period starts and ends. */
    @FunctionalInterface
    public interface Load {
        void run(ClosedLoop.Hook hook) throws Exception;
    }

    /**
     * Runs the load under a JFR recording of process {@code pid}, and reads the process's
     * per-thread CPU at the start and end of the measured period; returns the markdown summary.
     */
    public static String profile(long pid, Path jfrFile, String what, Load load) throws Exception {
        Files.createDirectories(jfrFile.getParent());
        Files.deleteIfExists(jfrFile);
        jcmd(pid, "JFR.start", "name=bench", "settings=" + settings(jfrFile.getParent()), "filename=" + jfrFile);
        List<Map<String, long[]>> cpu = new java.util.ArrayList<>();
        try {
            load.run(new ClosedLoop.Hook() {
                @Override
                public void measuring() {
                    cpu.add(threadCpu(pid));
                }

                @Override
                public void measured() {
                    cpu.add(threadCpu(pid));
                }
            });
        } finally {
            jcmd(pid, "JFR.stop", "name=bench");
        }
        return summarise(jfrFile, what) + (cpu.size() == 2 ? threadTable(cpu.get(0), cpu.get(1)) : "");
    }

    /**
     * The JDK's "profile" settings with Java method sampling every 1 ms instead of 10 ms (threads
     * mostly in system calls give few samples otherwise); falls back to "profile" itself.
     */
    static String settings(Path dir) {
        Path jfc = Path.of(System.getProperty("java.home"), "lib", "jfr", "profile.jfc");
        try {
            String text = Files.readString(jfc);
            String tuned = text.replaceFirst("(?s)(<event name=\"jdk\\.ExecutionSample\">.*?<setting name=\"period\"[^>]*>)"
                    + "[^<]*(<)", "$11 ms$2");
            Path out = dir.resolve("bench-profile.jfc");
            Files.writeString(out, tuned);
            return out.toString();
        } catch (IOException | RuntimeException e) {
            return "profile";
        }
    }

    private static void jcmd(long pid, String... args) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Files.isExecutable(jcmd) ? jcmd.toString() : "jcmd");
        cmd.add(Long.toString(pid));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out);
        }
    }

    static String summarise(Path jfrFile, String what) throws IOException {
        Map<String, Long> top = new HashMap<>();
        Map<String, Long> topOutsideEngines = new HashMap<>();
        long outsideEngines = 0;
        Map<String, Long> phalanx = new HashMap<>();
        Map<String, Long> threads = new HashMap<>();
        Map<String, Long> parked = new HashMap<>();
        long samples = 0;
        long parkedNanos = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfrFile)) {
            String type = e.getEventType().getName();
            RecordedStackTrace st = e.getStackTrace();
            if (type.equals("jdk.ExecutionSample")) {
                samples++;
                if (st != null && !st.getFrames().isEmpty()) {
                    top.merge(frame(st.getFrames().get(0)), 1L, Long::sum);
                    String p = firstPhalanx(st.getFrames());
                    phalanx.merge(p == null ? "(no Phalanx frame: JDK/library thread)" : p, 1L, Long::sum);
                    if (!EMULATED_ENGINE.equals(p)) {
                        outsideEngines++;
                        topOutsideEngines.merge(frame(st.getFrames().get(0)), 1L, Long::sum);
                    }
                }
                RecordedThread t = e.getThread("sampledThread");
                threads.merge(threadKind(t == null ? null : t.getJavaName()), 1L, Long::sum);
            } else if (type.equals("jdk.ThreadPark") || type.equals("jdk.JavaMonitorEnter")) {
                long d = e.getDuration().toNanos();
                parkedNanos += d;
                String where = st == null ? "(unknown)" : waitSite(st.getFrames());
                if (where == null && st != null) {
                    where = firstOutsideJdk(st.getFrames());
                }
                parked.merge(where == null ? "(JDK only)" : where, d, Long::sum);
            }
        }
        StringBuilder md = new StringBuilder();
        md.append("### JFR profile of the controller: ").append(what).append("\n\n");
        md.append(String.format(Locale.ROOT, "%d CPU samples of threads running Java code (JFR `profile` settings"
                + " with method sampling every 1 ms; time in system calls such as socket reads and writes is not"
                + " sampled). Recording: `%s` (in bench/target/profiles, not committed).%n%n", samples,
                jfrFile.getFileName()));
        md.append("**Top frames of the CPU samples** (where the CPU was spent):\n\n");
        table(md, top, samples, "samples");
        md.append("**Nearest Phalanx frame** (which Phalanx code led to that CPU; work of the emulated backends'"
                + " real engines, which would run on the database servers in production, is counted apart):\n\n");
        table(md, phalanx, samples, "samples");
        if (outsideEngines < samples) {
            md.append("**Top frames outside the emulated engines** (Phalanx, its libraries and the JDK):\n\n");
            table(md, topOutsideEngines, outsideEngines, "samples");
        }
        md.append("**CPU samples per thread kind:**\n\n");
        table(md, threads, samples, "samples");
        if (!parked.isEmpty()) {
            md.append(String.format(Locale.ROOT, "**Where threads waited** (jdk.ThreadPark and monitor waits over the"
                    + " 10 ms threshold; %.1f s in total):%n%n", parkedNanos / 1e9));
            Map<String, Long> ms = new HashMap<>();
            parked.forEach((k, v) -> ms.put(k, v / 1_000_000));
            table(md, ms, Math.max(1, parkedNanos / 1_000_000), "ms waited");
        }
        return md.toString();
    }

    private static void table(StringBuilder md, Map<String, Long> counts, long total, String unit) {
        md.append("| ").append(unit).append(" | share | frame |\n|---:|---:|---|\n");
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(TOP)
                .forEach(en -> md.append(String.format(Locale.ROOT, "| %d | %.1f%% | `%s` |%n", en.getValue(),
                        100.0 * en.getValue() / Math.max(1, total), en.getKey())));
        md.append('\n');
    }

    private static String frame(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    static final String EMULATED_ENGINE = "(emulated backend: the real SQLite/H2 engine and the emulation driver)";
    /** The package of the emulation driver (the test kit's FaultyDriver), in the controller's stacks. */
    private static final String EMULATION = "org.phalanx.testkit.jdbc.";

    /** The Phalanx frame nearest the top, or {@link #EMULATED_ENGINE} when the emulation driver comes first. */
    private static String firstPhalanx(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String type = f.getMethod().getType().getName();
            if (type.startsWith(EMULATION)) {
                return EMULATED_ENGINE;
            }
            if (type.startsWith("org.phalanx.")) {
                return frame(f);
            }
        }
        return null;
    }

    /** The nearest Phalanx frame of a wait, marked when the wait is inside an emulated backend (a slot). */
    private static String waitSite(List<RecordedFrame> frames) {
        boolean emulated = false;
        for (RecordedFrame f : frames) {
            String type = f.getMethod().getType().getName();
            if (type.startsWith(EMULATION)) {
                emulated = true;
            } else if (type.startsWith("org.phalanx.")) {
                return frame(f) + (emulated ? " → waiting in an emulated backend (slot queue, service time)" : "");
            }
        }
        return null;
    }

    private static String firstOutsideJdk(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String t = f.getMethod().getType().getName();
            if (!t.startsWith("java.") && !t.startsWith("jdk.") && !t.startsWith("sun.")) {
                return frame(f);
            }
        }
        return null;
    }

    /**
     * CPU ticks {user, system} per thread kind of a process, from /proc/PID/task/TID/stat (the
     * kernel's thread names: Java thread names cut to 15 characters, GC and JIT threads included).
     */
    static Map<String, long[]> threadCpu(long pid) {
        Map<String, long[]> map = new HashMap<>();
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (var list = Files.list(tasks)) {
            for (Path t : list.toList()) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long[] acc = map.computeIfAbsent(threadKind(name), k -> new long[2]);
                    acc[0] += Long.parseLong(f[11]);
                    acc[1] += Long.parseLong(f[12]);
                } catch (IOException | RuntimeException e) {
                    // the thread ended
                }
            }
        } catch (IOException e) {
            return map;
        }
        return map;
    }

    /** Where the controller's CPU went by thread kind during the profiled run (all of it, not only Java code). */
    static String threadTable(Map<String, long[]> before, Map<String, long[]> after) {
        Map<String, long[]> delta = new HashMap<>();
        long total = 0;
        for (Map.Entry<String, long[]> e : after.entrySet()) {
            long[] b = before.getOrDefault(e.getKey(), new long[2]);
            long[] d = {e.getValue()[0] - b[0], e.getValue()[1] - b[1]};
            if (d[0] + d[1] > 0) {
                delta.put(e.getKey(), d);
                total += d[0] + d[1];
            }
        }
        StringBuilder md = new StringBuilder("**Controller CPU by thread kind** during the measured period (from"
                + " /proc, user + kernel time, every thread including JIT compiler and GC; `phalanx-client-#` are the"
                + " front-end threads serving the client connections, `phalanx-backend-*` the backends' executors"
                + " running replicated writes; the emulated backends' real SQLite/H2 work runs on these threads; starting a"
                + " recording makes the JIT recompile for a while, so a large compiler share here is the profiler's"
                + " doing, not the steady state):\n\n"
                + "| thread kind | CPU share | kernel part |\n|---|---:|---:|\n");
        long all = Math.max(1, total);
        delta.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue()[0] + b.getValue()[1],
                a.getValue()[0] + a.getValue()[1])).limit(TOP).forEach(e -> {
                    long sum = e.getValue()[0] + e.getValue()[1];
                    md.append(String.format(Locale.ROOT, "| `%s` | %.1f%% | %.0f%% |%n", e.getKey(), 100.0 * sum / all,
                            100.0 * e.getValue()[1] / Math.max(1, sum)));
                });
        return md.append('\n').toString();
    }

    /** "phalanx-backend-n8-b3" and "client-12" become "phalanx-backend-n#-b#" and "client-#". */
    static String threadKind(String name) {
        if (name == null) {
            return "(unknown)";
        }
        return name.replaceAll("\\d+", "#");
    }

    /** Markdown for the case where the profile could not be taken. */
    public static String unavailable(String what, Exception e) {
        return "### JFR profile of the controller: " + what + "\n\nNo profile: " + e + "\n";
    }
}
