package org.phalanx.bench.cluster;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.phalanx.controller.Controller;
import org.phalanx.requestmanager.stats.CacheStatistics;
import org.phalanx.testkit.process.PublishedFile;

/**
 * Publishes counters from the controller process to the harness, as
 * {@link org.phalanx.testkit.jdbc.EmulationStats} does for the emulated backends: a daemon
 * thread rewrites a file every {@value #PERIOD_MILLIS} ms with, per virtual database, a line
 * {@code cache name hits misses invalidations entries} when it has a result cache and a line
 * {@code answers name <histogram>}: the controller's answer times since start
 * ({@link org.phalanx.controller.vdb.AnswerTimes}, an HdrHistogram, compressed, Base64). The
 * harness reads the file before and after a measured period to get the hit rate and the answer
 * times of that period. (The same figures are on JMX; this keeps the harness free of a JMX client.)
 */
public final class CacheCounters {
    public static final String PROPERTY = "phalanx.bench.cacheStats";
    /**
     * Often enough for a period's boundaries (a few percent of a measured period of seconds), and
     * rarely enough that the publishing itself (copying and compressing histograms) is not a
     * noticeable part of the controller's CPU per request.
     */
    static final int PERIOD_MILLIS = 200;
    /** Per virtual database, the answers line last written and the count it holds: an idle one is not encoded again. */
    private static final Map<String, Map.Entry<Long, String>> LAST_ANSWERS = new java.util.concurrent.ConcurrentHashMap<>();

    /** One virtual database's cache counters. */
    public record Counters(long hits, long misses, long invalidations, long entries) {
        /** Hit rate between two readings; NaN when nothing was looked up. */
        public double hitRate(Counters before) {
            long h = hits - (before == null ? 0 : before.hits);
            long m = misses - (before == null ? 0 : before.misses);
            return h + m == 0 ? Double.NaN : h / (double) (h + m);
        }
    }

    /** What one reading of the file holds, per virtual database. */
    public record Published(Map<String, Counters> caches, Map<String, Histogram> answers) {
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
                sb.append("cache ").append(name).append(' ').append(s.hits()).append(' ').append(s.misses()).append(' ')
                        .append(s.invalidations()).append(' ').append(s.entries()).append('\n');
            }
            long count = controller.answerTimes(name).count();
            Map.Entry<Long, String> last = LAST_ANSWERS.get(name);
            if (last == null || last.getKey() != count) {
                Histogram answers = controller.answerTimes(name).snapshot();
                ByteBuffer buffer = ByteBuffer.allocate(answers.getNeededByteBufferCapacity());
                int length = answers.encodeIntoCompressedByteBuffer(buffer);
                last = Map.entry(answers.getTotalCount(), "answers " + name + ' '
                        + Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)) + '\n');
                LAST_ANSWERS.put(name, last);
            }
            sb.append(last.getValue());
        }
        return sb.toString();
    }

    /** Reads the file the controller process writes; empty if there is none (yet). */
    public static Published read(Path file) {
        Map<String, Counters> caches = new HashMap<>();
        Map<String, Histogram> answers = new HashMap<>();
        try {
            for (String line : PublishedFile.read(file)) {
                String[] p = line.trim().split(" ");
                if (p.length == 6 && p[0].equals("cache")) {
                    caches.put(p[1], new Counters(Long.parseLong(p[2]), Long.parseLong(p[3]), Long.parseLong(p[4]),
                            Long.parseLong(p[5])));
                } else if (p.length == 3 && p[0].equals("answers")) {
                    answers.put(p[1], Histogram.decodeFromCompressedByteBuffer(
                            ByteBuffer.wrap(Base64.getDecoder().decode(p[2])), 0));
                }
            }
        } catch (RuntimeException | DataFormatException e) {
            return new Published(Map.of(), Map.of());
        }
        return new Published(caches, answers);
    }

    /** Median answer time in µs (the histograms hold µs) between two readings of one virtual database; NaN when unknown. */
    public static double p50Micros(Histogram before, Histogram after) {
        if (after == null) {
            return Double.NaN;
        }
        Histogram period = after.copy();
        if (before != null) {
            period.subtract(before);
        }
        return period.getTotalCount() == 0 ? Double.NaN : period.getValueAtPercentile(50);
    }
}
