package org.phalanx.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Launcher;
import org.phalanx.testkit.process.Ports;

/**
 * bin/phalanx as a user runs it: the demo, a controller process stopped with SIGTERM, and an
 * invalid configuration. Runs after packaging, so the launcher finds the built jars.
 */
class LauncherIT {
    private static final Path ROOT = Launcher.ROOT;

    @TempDir
    Path dir;

    /** A copy of the sample folder listening on a free port: an independent cluster. */
    private Path sampleCopy(int port) throws IOException {
        Path sample = ROOT.resolve("samples/raidb1-sqlite");
        for (String f : List.of("controller.xml", "demo.xml")) {
            Files.copy(sample.resolve(f), dir.resolve(f));
        }
        Path controller = dir.resolve("controller.xml");
        Files.writeString(controller, Files.readString(controller).replace("port=\"25322\"", "port=\"" + port + "\""));
        return dir;
    }

    /** {@code bin/phalanx hash-password}: its hash in the file instead of the password, and the login works. */
    @Test
    void aUserKeptAsAHashLogsInWithItsPassword() throws Exception {
        Process hash = new ProcessBuilder(Launcher.command("hash-password")).redirectErrorStream(false).start();
        hash.getOutputStream().write("s3cret\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        hash.getOutputStream().close();
        String hashed = new String(hash.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertTrue(hash.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, hash.exitValue());
        assertTrue(hashed.startsWith("pbkdf2-sha256:"), hashed);
        int port = Ports.free();
        Path folder = sampleCopy(port);
        Path demo = folder.resolve("demo.xml");
        Files.writeString(demo, Files.readString(demo).replace("password=\"demo\"", "passwordHash=\"" + hashed + "\""));
        assertTrue(!Files.readString(demo).contains("s3cret"));
        ControllerProcess controller = ControllerProcess.launcher(folder.resolve("controller.xml"))
                .output(dir.resolve("controller.out")).awaitPorts(port).start();
        try {
            String url = "jdbc:phalanx://127.0.0.1:" + port + "/demo?user=demo&password=";
            try (Connection c = DriverManager.getConnection(url + "s3cret")) {
                assertTrue(c.isValid(5));
            }
            java.sql.SQLException wrong = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                    () -> DriverManager.getConnection(url + "demo").close());
            assertEquals("28000", wrong.getSQLState());
        } finally {
            controller.close();
        }
    }

    @Test
    void demoShowsReplicationAndStopsItsController() throws Exception {
        Path folder = sampleCopy(Ports.free());
        Path output = dir.resolve("demo.out");
        Process demo = Launcher.start(output, "demo", folder.toString());
        assertTrue(demo.waitFor(3, TimeUnit.MINUTES), "demo finished");
        String out = Files.readString(output);
        assertEquals(0, demo.exitValue(), out);
        assertTrue(out.contains("All 3 backends hold the same rows"), out);
        for (int i = 1; i <= 3; i++) {
            assertTrue(Files.exists(folder.resolve("backend" + i + ".db")), "backend files live in the copied folder");
        }
        assertTrue(Files.readString(folder.resolve("controller.log")).contains("Phalanx controller stopped"));
    }

    @Test
    void controllerProcessFinishesRequestsAndStopsCleanlyOnSigterm() throws Exception {
        int port = Ports.free();
        Path folder = sampleCopy(port);
        Path log = dir.resolve("controller.out");
        ControllerProcess controller = ControllerProcess.launcher(folder.resolve("controller.xml")).output(log)
                .awaitPorts(port).start();
        try {
            String url = "jdbc:phalanx://127.0.0.1:" + port + "/demo?user=demo&password=demo";
            int acknowledged = 0;
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                    for (int i = 0; i < 200; i++) {
                        ps.setInt(1, i);
                        ps.setString(2, "row " + i);
                        ps.executeUpdate();
                        acknowledged++;
                    }
                }
                c.setAutoCommit(false);
                s.executeUpdate("INSERT INTO t VALUES (1000, 'never committed')");
                controller.process().destroy(); // SIGTERM
                assertTrue(controller.process().waitFor(1, TimeUnit.MINUTES), "controller exited");
            } catch (SQLException expected) {
                // the connection is closed under the open transaction: that is the point
            }
            String out = Files.readString(log);
            assertTrue(out.contains("Phalanx controller stopped"), out);
            for (int i = 1; i <= 3; i++) {
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("backend" + i + ".db"));
                     Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*), MAX(id) FROM t")) {
                    rs.next();
                    assertEquals(acknowledged, rs.getInt(1), "acknowledged rows on backend " + i);
                    assertEquals(199, rs.getInt(2), "the open transaction rolled back on backend " + i);
                }
            }
        } finally {
            controller.process().destroyForcibly();
        }
    }

    @Test
    void anInvalidConfigurationIsRefusedWithFileLineAndColumn() throws Exception {
        Path bad = dir.resolve("bad.xml");
        Files.writeString(bad, """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="not-a-port"/>
                  <virtualDatabase file="missing.xml"/>
                </controller>
                """);
        Path output = dir.resolve("bad.out");
        Process p = Launcher.start(output, "controller", bad.toString());
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        String out = Files.readString(output);
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains(bad + ":3:"), "file:line:col of the bad port in: " + out);
    }

}
