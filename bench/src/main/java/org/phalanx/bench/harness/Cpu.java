package org.phalanx.bench.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time read from /proc (Linux): this JVM (the clients), another process (the controller),
 * every PostgreSQL server process, and the whole machine. /proc counts in clock ticks, 10 ms
 * each, which is fine over a measured period of seconds.
 */
public final class Cpu {
    private static final long NANOS_PER_TICK = 1_000_000_000L / clockTicks();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private Cpu() {
    }

    /** CPU time of every process that matters, at one instant. */
    public record Snapshot(long wallNanos, long client, long controller, long controllerKernel, long database,
                           long machineBusy, long steal) {
    }

    public static Snapshot snapshot(long controllerPid, boolean postgres) {
        long[] ctl = controllerPid > 0 ? processSplit(controllerPid) : new long[2];
        long[] machine = machine();
        return new Snapshot(System.nanoTime(), self(), ctl[0] + ctl[1], ctl[1], postgres ? postgres() : 0,
                machine[0], machine[1]);
    }

    /** This JVM: the client threads, plus the harness's own small share. */
    public static long self() {
        return OS.getProcessCpuTime();
    }

    /** {user, kernel} CPU time of a process, in nanoseconds; zeros if it is gone. */
    public static long[] processSplit(long pid) {
        long[] t = statSplit(Path.of("/proc", Long.toString(pid), "stat"));
        return new long[] {t[0] * NANOS_PER_TICK, t[1] * NANOS_PER_TICK};
    }

    /** Sum over the PostgreSQL server processes (those whose comm is "postgres"). */
    public static long postgres() {
        long ticks = 0;
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString()
                .chars().allMatch(Character::isDigit))) {
            for (Path p : procs) {
                try {
                    if (Files.readString(p.resolve("comm")).strip().equals("postgres")) {
                        ticks += statTicks(p.resolve("stat"));
                    }
                } catch (IOException e) {
                    // the process ended meanwhile
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return ticks * NANOS_PER_TICK;
    }

    /**
     * {busy, steal} time of all CPUs from /proc/stat: busy is user, nice, system, irq and softirq;
     * steal is time the hypervisor gave this virtual machine's CPUs to someone else.
     */
    public static long[] machine() {
        try {
            String line = Files.readAllLines(Path.of("/proc/stat")).get(0);
            String[] f = line.trim().split("\\s+");
            long busy = 0;
            for (int i : new int[] {1, 2, 3, 6, 7}) {
                busy += Long.parseLong(f[i]);
            }
            long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
            return new long[] {busy * NANOS_PER_TICK, steal * NANOS_PER_TICK};
        } catch (IOException | RuntimeException e) {
            return new long[2];
        }
    }

    private static long statTicks(Path stat) {
        long[] t = statSplit(stat);
        return t[0] + t[1];
    }

    /** {utime, stime} in ticks. */
    private static long[] statSplit(Path stat) {
        try {
            String s = Files.readString(stat);
            // the command name may hold spaces: fields are counted after its closing parenthesis
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
        } catch (IOException | RuntimeException e) {
            return new long[2];
        }
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            p.waitFor();
            long t = Long.parseLong(out);
            return t > 0 ? t : 100;
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
