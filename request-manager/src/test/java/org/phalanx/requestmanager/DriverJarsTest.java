package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.backend.Backend;

/**
 * Two versions of sqlite-jdbc side by side: backend "current" uses the one on the classpath,
 * backend "old" an older release loaded from its jar (copied to target/test-drivers by the build)
 * in a class loader of its own. Each reports its own SQLite version, and both replicate.
 */
class DriverJarsTest {
    private static final Path OLD_JAR = Path.of("target", "test-drivers", "sqlite-jdbc-old.jar");

    @TempDir
    Path dir;
    private RequestManager rm;

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
    }

    private RequestManager start(Path jar) throws SQLException {
        List<BackendConfig> backends = List.of(
                BackendConfig.builder("current", "jdbc:sqlite:" + dir.resolve("current.db")).poolSize(5).build(),
                BackendConfig.builder("old", "jdbc:sqlite:" + dir.resolve("old.db")).poolSize(5).driverJar(jar)
                        .build());
        rm = new RequestManager("jars", RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(5)).analysisCacheSize(100).build(), backends);
        rm.start();
        return rm;
    }

    @Test
    void twoVersionsOfOneDriverServeTwoBackends() throws Exception {
        assertTrue(Files.isRegularFile(OLD_JAR), "the build copies the old driver to " + OLD_JAR);
        start(OLD_JAR);
        assertEquals(Map.of("current", BackendState.ENABLED, "old", BackendState.ENABLED), rm.backendStates());
        try (Session s = rm.openSession("u")) {
            s.execute(Request.of("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")).close();
            s.execute(Request.of("INSERT INTO t VALUES (1, 'both')")).close();
        }
        String current = versionServedBy("current");
        String old = versionServedBy("old");
        assertNotEquals(current, old, "each backend runs its own driver's SQLite");
        assertTrue(old.startsWith("3.46.1"), old);

        Backend currentBackend = (Backend) rm.backends().get(0);
        Backend oldBackend = (Backend) rm.backends().get(1);
        try (Connection a = currentBackend.connection(currentBackend.config().credentials());
             Connection b = oldBackend.connection(oldBackend.config().credentials())) {
            ClassLoader own = a.unwrap(Connection.class).getClass().getClassLoader();
            ClassLoader isolated = b.unwrap(Connection.class).getClass().getClassLoader();
            assertNotSame(own, isolated, "the jar's classes are not the classpath's");
            assertEquals(ClassLoader.getPlatformClassLoader(), isolated.getParent());
            try (ResultSet rs = b.createStatement().executeQuery("SELECT v FROM t")) {
                rs.next();
                assertEquals("both", rs.getString(1), "the write reached the backend on the old driver");
            }
        }
    }

    /** The SQLite version as seen through the virtual database with only that backend enabled. */
    private String versionServedBy(String backend) throws SQLException {
        String other = backend.equals("current") ? "old" : "current";
        rm.disableBackend(other);
        try (Session s = rm.openSession("u"); Result r = s.execute(Request.of("SELECT sqlite_version()"))) {
            ResultSet rs = ((Result.Rows) r).resultSet();
            rs.next();
            return rs.getString(1);
        } finally {
            rm.enableBackend(other);
        }
    }

    @Test
    void aMissingJarLeavesItsBackendDisabledWithTheReason() throws Exception {
        start(dir.resolve("no-such-driver.jar"));
        assertEquals(BackendState.DISABLED, rm.backendStates().get("old"));
        assertEquals(BackendState.ENABLED, rm.backendStates().get("current"));
        Backend old = (Backend) rm.backends().get(1);
        SQLException e = assertThrows(SQLException.class, () -> old.connection(old.config().credentials()));
        assertTrue(e.getMessage().contains("no-such-driver.jar"), e.getMessage());
    }
}
