package org.phalanx.controller;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the controller process does with bad arguments and bad files: exit code 2, reasons on stderr. */
class ControllerMainTest {
    @TempDir
    Path dir;
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int launch(String... args) {
        return ControllerMain.launch(args, new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void usage() {
        assertEquals(2, launch());
        assertTrue(stderr().contains("usage"));
        assertEquals(2, launch("a.xml", "b.xml"));
    }

    @Test
    void missingFile() {
        Path missing = dir.resolve("controller.xml");
        assertEquals(2, launch(missing.toString()));
        assertEquals(missing + ": no such file", stderr().strip());
    }

    private Path controller(int port, String backendUrl, String recoveryLog) throws Exception {
        Files.writeString(dir.resolve("vdb.xml"), """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends><backend name="db1" url="%s"/></backends>
                  %s
                </virtualDatabase>
                """.formatted(backendUrl, recoveryLog));
        Path file = dir.resolve("controller.xml");
        Files.writeString(file, """
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port));
        return file;
    }

    /** What the machine refuses at start is one line naming it, exit code 2: no stack trace. */
    @Test
    void startUpFailuresOfTheEnvironmentAreOneLine() throws Exception {
        String sqlite = "jdbc:sqlite:" + dir.resolve("b1.db");
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertEquals(2, launch(controller(taken.getLocalPort(), sqlite, "").toString()));
            assertOneLine("" + taken.getLocalPort());
        }
        err.reset();
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path unwritable = Path.of("/proc/phalanx-recovery-log"); // no one, root included, creates folders in /proc
        assertEquals(2, launch(controller(port, sqlite, "<recoveryLog dir=\"" + unwritable + "\"/>").toString()));
        assertOneLine(unwritable.toString());
    }

    private void assertOneLine(String naming) {
        String out = stderr().strip();
        assertEquals(1, out.lines().count(), out);
        assertTrue(out.contains(naming), out);
    }

    @Test
    void invalidConfigurationIsRefusedWithThePosition() throws Exception {
        Path file = dir.resolve("controller.xml");
        Files.writeString(file, """
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="25322" colour="blue"/>
                  <virtualDatabase file="demo.xml"/>
                </controller>
                """);
        assertEquals(2, launch(file.toString()));
        assertTrue(stderr().startsWith(file + ":2:"), stderr());
        assertTrue(stderr().contains("'colour' is not allowed"), stderr());
    }
}
