package org.phalanx.bench.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Command-line options of the suite (see {@link #USAGE}). */
public record Options(List<String> scenarios, Duration warmup, Duration measure, int rounds, boolean quick,
                      Path out, Path work, boolean profile, String controllerCpus, boolean list, boolean keepWork) {

    public static final String USAGE = """
            usage: bench/run [options]
              --scenarios a,b,...   scenarios to run (default: all; see --list)
              --warmup 2s           warm-up before each measured period
              --measure 5s          measured period of each run
              --rounds 3            rounds (each round runs every variant once, alternating)
              --quick               smoke mode: tiny datasets, fewer variants, service times / 10, 1 round,
                                    0.1 s warm-up, 0.25 s measured
              --out DIR             where RESULTS.md and results/ go (default: bench/ of the repository)
              --work DIR            scratch folder for database files and logs (default: /dev/shm or tmp)
              --no-profile          do not take a JFR profile of the controller when a target is missed
              --controller-cpus L   pin the controller process with taskset -c L (pin the harness with
                                    taskset yourself, e.g. taskset -c 0 bench/run ...)
              --keep-work           keep the scratch folder (configs, database files, controller logs)
              --list                list the scenarios and exit
            durations: 500ms, 2s, 1.5s
            """;

    public static Options parse(String... args) {
        List<String> scenarios = List.of("all");
        Duration warmup = null;
        Duration measure = null;
        Integer rounds = null;
        boolean quick = false;
        Path out = null;
        Path work = null;
        boolean profile = true;
        String cpus = null;
        boolean list = false;
        boolean keep = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--scenarios", "--scenario" -> scenarios = List.of(value(args, ++i, a).split(","));
                case "--warmup" -> warmup = duration(value(args, ++i, a));
                case "--measure", "--duration" -> measure = duration(value(args, ++i, a));
                case "--rounds" -> rounds = Integer.parseInt(value(args, ++i, a));
                case "--quick" -> quick = true;
                case "--out" -> out = Path.of(value(args, ++i, a));
                case "--work" -> work = Path.of(value(args, ++i, a));
                case "--no-profile" -> profile = false;
                case "--controller-cpus" -> cpus = value(args, ++i, a);
                case "--list" -> list = true;
                case "--keep-work" -> keep = true;
                case "-h", "--help" -> throw new IllegalArgumentException("");
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (warmup == null) {
            warmup = quick ? Duration.ofMillis(100) : Duration.ofSeconds(2);
        }
        if (measure == null) {
            measure = quick ? Duration.ofMillis(250) : Duration.ofSeconds(5);
        }
        if (rounds == null) {
            rounds = quick ? 1 : 3;
        }
        if (out == null) {
            out = Files.isDirectory(Path.of("bench", "src")) ? Path.of("bench") : Path.of(".");
        }
        if (work == null) {
            Path shm = Path.of("/dev/shm");
            work = (Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")))
                    .resolve("phalanx-bench-" + ProcessHandle.current().pid());
        }
        return new Options(new ArrayList<>(scenarios), warmup, measure, rounds, quick, out.toAbsolutePath().normalize(),
                work.toAbsolutePath().normalize(), profile, cpus, list, keep);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    static Duration duration(String text) {
        String t = text.trim();
        if (t.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
        }
        if (t.endsWith("s")) {
            return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
        }
        return Duration.ofMillis(Math.round(Double.parseDouble(t) * 1000));
    }
}
