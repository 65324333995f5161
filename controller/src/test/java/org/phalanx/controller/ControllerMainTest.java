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
