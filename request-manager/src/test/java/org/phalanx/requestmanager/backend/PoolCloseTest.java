package org.phalanx.requestmanager.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.config.BackendConfig;

/**
 * A closed backend leaves no connection open behind it: its pool opens connections in the
 * background (up to its minimum of idle ones), and one still being opened when the backend closes
 * is waited for and closed, not left holding the database (for SQLite, its file) for ever. With a
 * driver loaded from a jar the pool only waits as long as the connection source's login timeout.
 */
class PoolCloseTest {
    private static final Path OLD_JAR = Path.of("target", "test-drivers", "sqlite-jdbc-old.jar");

    @TempDir
    Path dir;

    /** How many of this process's open files are {@code file}. */
    private static long openHandles(Path file) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(file);
                } catch (IOException gone) {
                    return false;
                }
            }).count();
        }
    }

    @Test
    void aDriverFromAJarKeepsTheLoginTimeoutThePoolSets() throws Exception {
        DriverDataSource source = new DriverDataSource(new org.sqlite.JDBC(), "jdbc:sqlite::memory:", new java.util.Properties());
        source.setLoginTimeout(7);
        assertEquals(7, source.getLoginTimeout(), "HikariCP waits this long on close for a connection being opened");
    }

    @Test
    void noConnectionOutlivesTheBackendsClose() throws Exception {
        assertTrue(Files.isRegularFile(OLD_JAR), "the build copies the old driver to " + OLD_JAR);
        assertTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs Linux's /proc");
        for (int i = 0; i < 50; i++) {
            Path file = dir.resolve("db" + i + ".db").toAbsolutePath();
            Backend b = new Backend(BackendConfig.builder("db" + i, "jdbc:sqlite:" + file).poolSize(5)
                    .driverJar(OLD_JAR).build(), Duration.ofSeconds(5), x -> { });
            b.connectionFor("app").close(); // the pool now opens its second idle connection in the background
            b.close(Duration.ZERO);
            Thread.sleep(100); // a connection the pool was still opening would be open by now
            assertEquals(0, openHandles(file), "round " + i + ": " + file + " is still open after the backend closed");
        }
    }
}
