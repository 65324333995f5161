package org.phalanx.testkit.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.function.Supplier;

/**
 * How a controller process hands counters to the process that started it (the bench harness): a
 * daemon thread rewrites a text file every period (written aside, then moved over the old one, so
 * a reader never sees half of it); the harness reads its lines before and after a measured period.
 */
public final class PublishedFile {
    private PublishedFile() {
    }

    /** Starts a daemon thread named {@code name} that writes {@code content} to {@code target} every period. */
    public static void publish(String name, Path target, long periodMillis, Supplier<String> content) {
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
                    Files.writeString(tmp, content.get(), StandardCharsets.UTF_8);
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    Thread.sleep(periodMillis);
                } catch (InterruptedException e) {
                    return;
                } catch (IOException | RuntimeException e) {
                    // the harness then misses these counters; the benchmark itself goes on
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    /** The file's lines, or none if it is not there (yet) or cannot be read. */
    public static List<String> read(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }
}
