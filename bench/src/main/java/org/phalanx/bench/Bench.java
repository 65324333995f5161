package org.phalanx.bench;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.phalanx.bench.harness.BenchContext;
import org.phalanx.bench.harness.Options;
import org.phalanx.bench.harness.Scenario;
import org.phalanx.bench.report.MachineFacts;
import org.phalanx.bench.report.Results;
import org.phalanx.bench.report.Section;
import org.phalanx.testkit.db.DatabaseServer;

/**
 * The suite's entry point ({@code bench/run}): runs the chosen scenarios, writes each one's
 * section under {@code results/}, then assembles {@code RESULTS.md}. Exit status 0 when every
 * scenario ran (missed targets are results, not failures), 1 when one failed, 2 for bad options.
 */
public final class Bench {
    private Bench() {
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) {
                System.err.println(e.getMessage());
            }
            System.err.print(Options.USAGE);
            System.exit(2);
            return;
        }
        if (options.list()) {
            for (Scenario s : Scenarios.all()) {
                System.out.printf("%-20s %s%n", s.id(), s.title());
            }
            return;
        }
        List<String> failed = run(options);
        System.exit(failed.isEmpty() ? 0 : 1);
    }

    /** Runs the scenarios; returns the ids of those that failed (their error is printed). */
    public static List<String> run(Options options) {
        System.setProperty("java.awt.headless", "true");
        if (System.getProperty("phalanx.log.level") == null) {
            // a scenario that drives a controller in this JVM (recovery) would drown the output in its INFO lines
            System.setProperty("phalanx.log.level", "WARN");
        }
        List<Scenario> scenarios = Scenarios.select(options.scenarios());
        List<String> failed = new ArrayList<>();
        long start = System.nanoTime();
        try {
            Files.createDirectories(options.work());
            Map<String, String> facts = MachineFacts.collect(DatabaseServer.POSTGRESQL.version(), MachineFacts.affinity()
                    + (options.controllerCpus() == null ? "" : "; controller pinned to CPUs " + options.controllerCpus())
                    + (options.quick() ? "; QUICK smoke mode (tiny datasets, figures meaningless)" : ""));
            facts.put("timing", options.rounds() + " rounds of " + seconds(options.warmup()) + " warm-up + "
                    + seconds(options.measure()) + " measured per variant");
            Results.writeMachine(options.out(), facts);
            for (Scenario s : scenarios) {
                System.out.println("[" + s.id() + "] " + s.title());
                BenchContext ctx = new BenchContext(options, s.id());
                long t0 = System.nanoTime();
                try {
                    Section section = new Section(s.id(), s.title(), options.out().resolve("results").resolve(s.id()));
                    s.run(ctx, section);
                    section.text("_Ran " + java.time.LocalDateTime.now().withNano(0) + " on commit " + facts.get("commit")
                            + ", " + facts.get("mode") + ", " + facts.get("timing") + "; took "
                            + Math.round((System.nanoTime() - t0) / 1e9) + " s._");
                    section.write();
                } catch (Exception | AssertionError e) {
                    failed.add(s.id());
                    System.err.println("[" + s.id() + "] FAILED: " + e);
                    e.printStackTrace();
                } finally {
                    ctx.close();
                }
            }
            List<String> order = Scenarios.all().stream().map(Scenario::id).toList();
            Path file = Results.assemble(options.out(), order);
            System.out.println("wrote " + file + " in " + Math.round((System.nanoTime() - start) / 1e9) + " s");
        } catch (IOException e) {
            System.err.println("cannot write results: " + e);
            failed.add("results");
        } finally {
            if (options.keepWork()) {
                System.out.println("kept the scratch folder " + options.work());
            } else {
                deleteQuietly(options.work());
            }
        }
        return failed;
    }

    private static String seconds(Duration d) {
        return d.toMillis() / 1000.0 + " s";
    }

    private static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            System.err.println("could not remove " + dir + ": " + e.getMessage());
        }
    }
}
