package org.phalanx.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The machine, software and mode a run happened in, for the head of RESULTS.md. */
public final class MachineFacts {
    private MachineFacts() {
    }

    public static Map<String, String> collect(String postgresVersion, String mode) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("date", ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        f.put("commit", command(List.of("git", "rev-parse", "--short", "HEAD")) + dirty());
        f.put("CPU", cpuModel() + ", " + cpuCount() + " CPUs (virtual)");
        f.put("memory", memory());
        f.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        f.put("Java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        f.put("PostgreSQL", postgresVersion);
        f.put("load average at start", read("/proc/loadavg").split(" ").length >= 3
                ? String.join(" ", List.of(read("/proc/loadavg").split(" ")).subList(0, 3)) : "?");
        f.put("mode", mode);
        return f;
    }

    /** Which Phalanx modules had uncommitted changes when the run started (they were measured too). */
    static String dirty() {
        String out = command(List.of("git", "status", "--porcelain", "--", "driver", "engine", "request-manager",
                "recovery-log", "controller"));
        if (out.equals("?") || out.isBlank()) {
            return "";
        }
        java.util.Set<String> modules = new java.util.TreeSet<>();
        for (String line : out.split("\n")) {
            // the output comes back stripped: the first line may have lost the blank of its status column
            String path = line.strip().replaceFirst("^\\S+\\s+", "");
            modules.add(path.contains("/") ? path.substring(0, path.indexOf('/')) : path);
        }
        return " (working tree, with uncommitted changes in " + String.join(", ", modules) + ")";
    }

    /** "unpinned" or "pinned to CPUs 0" from this process's affinity. */
    public static String affinity() {
        for (String line : read("/proc/self/status").split("\n")) {
            if (line.startsWith("Cpus_allowed_list:")) {
                String cpus = line.substring(line.indexOf(':') + 1).trim();
                String all = "0-" + (cpuCount() - 1);
                return cpus.equals(all) || (cpuCount() == 1 && cpus.equals("0")) ? "unpinned (all " + cpuCount()
                        + " CPUs shared by clients, controller and databases)" : "pinned to CPUs " + cpus;
            }
        }
        return "unknown";
    }

    static int cpuCount() {
        int n = 0;
        for (String line : read("/proc/cpuinfo").split("\n")) {
            if (line.startsWith("processor")) {
                n++;
            }
        }
        return n == 0 ? Runtime.getRuntime().availableProcessors() : n;
    }

    static String cpuModel() {
        for (String line : read("/proc/cpuinfo").split("\n")) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "unknown CPU";
    }

    static String memory() {
        for (String line : read("/proc/meminfo").split("\n")) {
            if (line.startsWith("MemTotal:")) {
                long kb = Long.parseLong(line.replaceAll("\\D", ""));
                return (kb / 1024 / 1024) + " GiB";
            }
        }
        return "?";
    }

    static String read(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            return "";
        }
    }

    static String command(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(new ArrayList<>(cmd)).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            return p.waitFor() == 0 ? out : "?";
        } catch (IOException e) {
            return "?";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }
}
