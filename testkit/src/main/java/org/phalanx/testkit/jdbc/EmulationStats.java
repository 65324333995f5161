package org.phalanx.testkit.jdbc;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.phalanx.testkit.process.PublishedFile;

/**
 * Publishes the emulated servers' counters from the controller process to the harness: when
 * the system property {@value #PROPERTY} names a file, a daemon thread rewrites it every
 * {@value #PERIOD_MILLIS} ms with one line per server: {@code name slots executions busyNanos
 * waitNanos engineCpuNanos class=executions/busyNanos ...}. The harness reads it before and after a measured
 * period to get each backend's utilisation (busy time / (slots x period)) and where it went.
 */
public final class EmulationStats {
    public static final String PROPERTY = "phalanx.testkit.emulationStats";
    static final int PERIOD_MILLIS = 100;
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    /** One server's counters as read back by the harness. */
    public record Counters(String name, int slots, long executions, long busyNanos, long waitNanos,
                           long engineCpuNanos, Map<String, long[]> perClass) {
    }

    private EmulationStats() {
    }

    static void startIfAsked() {
        String file = System.getProperty(PROPERTY);
        if (file == null || !STARTED.compareAndSet(false, true)) {
            return;
        }
        PublishedFile.publish("emulation-stats", Path.of(file), PERIOD_MILLIS, EmulationStats::lines);
    }

    private static String lines() {
        StringBuilder sb = new StringBuilder();
        for (EmulatedServer s : EmulatedServer.all()) {
            sb.append(s.name()).append(' ').append(s.slots()).append(' ').append(s.executions()).append(' ')
                    .append(s.busyNanos()).append(' ').append(s.waitNanos()).append(' ').append(s.engineCpuNanos());
            s.perClass().forEach((k, v) -> sb.append(' ').append(k).append('=').append(v[0]).append('/').append(v[1]));
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Reads the file the controller process writes; empty if there is none yet. */
    public static Map<String, Counters> read(Path file) {
        Map<String, Counters> map = new HashMap<>();
        try {
            for (String line : PublishedFile.read(file)) {
                String[] p = line.trim().split(" ");
                if (p.length >= 6) {
                    Map<String, long[]> perClass = new HashMap<>();
                    for (int i = 6; i < p.length; i++) {
                        int eq = p[i].indexOf('=');
                        int slash = p[i].indexOf('/');
                        perClass.put(p[i].substring(0, eq), new long[] {Long.parseLong(p[i].substring(eq + 1, slash)),
                            Long.parseLong(p[i].substring(slash + 1))});
                    }
                    map.put(p[0], new Counters(p[0], Integer.parseInt(p[1]), Long.parseLong(p[2]),
                            Long.parseLong(p[3]), Long.parseLong(p[4]), Long.parseLong(p[5]), perClass));
                }
            }
        } catch (RuntimeException e) {
            map.clear();
        }
        return map;
    }
}
