package org.phalanx.bench.cluster;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.phalanx.controller.Controller;
import org.phalanx.requestmanager.cache.CacheStatistics;

/**
 * Publishes the result caches' counters from the controller process to the harness, as
 * {@link org.phalanx.bench.emulation.EmulationStats} does for the emulated backends: a daemon
 * thread rewrites a file every {@value #PERIOD_MILLIS} ms with one line per virtual database
 * that has a cache, {@code name hits misses invalidations entries}. The harness reads it before
 * and after a measured period to get the hit rate of that period. (The controller's JMX interface
 * comes with the management issue; until then this is how a benchmark sees the counters.)
 */
public final class CacheCounters {
    public static final String PROPERTY = "phalanx.bench.cacheStats";
    static final int PERIOD_MILLIS = 50;

    /** One virtual database's cache counters. */
    public record Counters(long hits, long misses, long invalidations, long entries) {
        /** Hit rate between two readings; NaN when nothing was looked up. */
        public double hitRate(Counters before) {
            long h = hits - (before == null ? 0 : before.hits);
            long m = misses - (before == null ? 0 : before.misses);
            return h + m == 0 ? Double.NaN : h / (double) (h + m);
        }
    }

    private CacheCounters() {
    }

    /** Starts the publishing thread for these virtual databases of a started controller. */
    static void publish(Controller controller, List<String> virtualDatabases, Path target) {
        PublishedFile.publish("cache-counters", target, PERIOD_MILLIS, () -> lines(controller, virtualDatabases));
    }

    private static String lines(Controller controller, List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String name : names) {
            CacheStatistics s = controller.cacheStatistics(name);
            if (s != null) {
                sb.append(name).append(' ').append(s.hits()).append(' ').append(s.misses()).append(' ')
                        .append(s.invalidations()).append(' ').append(s.entries()).append('\n');
            }
        }
        return sb.toString();
    }

    /** Reads the file the controller process writes; empty if there is none (yet). */
    public static Map<String, Counters> read(Path file) {
        Map<String, Counters> map = new HashMap<>();
        try {
            for (String line : PublishedFile.read(file)) {
                String[] p = line.trim().split(" ");
                if (p.length == 5) {
                    map.put(p[0], new Counters(Long.parseLong(p[1]), Long.parseLong(p[2]), Long.parseLong(p[3]),
                            Long.parseLong(p[4])));
                }
            }
        } catch (RuntimeException e) {
            map.clear();
        }
        return map;
    }
}
