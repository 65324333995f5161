package org.phalanx.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.Launcher;
import org.phalanx.testkit.process.Ports;

/**
 * The controller tree sample (samples/tree-sqlite) as a user runs it: its script starts the four
 * controller processes, runs the demo through the top and checks the leaves. On a copy of the
 * sample folder with free ports, so it is an independent tree.
 */
class TreeSampleIT {
    private static final Path SAMPLE = Launcher.ROOT.resolve("samples/tree-sqlite");

    @TempDir
    Path dir;

    @Test
    void theScriptStartsTheTreeAndTheDemoRunsThroughIt() throws Exception {
        copyWithFreePorts();
        Path output = dir.resolve("demo.out");
        Process p = new ProcessBuilder(SAMPLE.resolve("run-demo.sh").toString(), dir.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the demo finished");
        String out = Files.readString(output);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("the virtual database speaks SQLite"), out);
        assertTrue(out.contains("Every leaf holds the tables its placement says, and the leaves of each"
                + " sub-controller are identical."), out);
        for (String sub : List.of("sub1", "sub2", "sub3")) {
            assertTrue(Files.readString(dir.resolve(sub + "/controller.log")).contains("Phalanx controller stopped"),
                    sub + " stopped cleanly");
        }
    }

    /** Copies the sample; every port it uses (25330..25333) becomes a free one. */
    private void copyWithFreePorts() throws IOException {
        try (Stream<Path> files = Files.walk(SAMPLE)) {
            // the configurations and the password file they name
            for (Path f : files.filter(Files::isRegularFile)
                    .filter(f -> f.toString().endsWith(".xml") || f.toString().endsWith(".txt")).toList()) {
                Path target = dir.resolve(SAMPLE.relativize(f).toString());
                Files.createDirectories(target.getParent());
                Files.copy(f, target);
            }
        }
        List<Path> configs;
        try (Stream<Path> files = Files.walk(dir)) {
            configs = files.filter(f -> f.toString().endsWith(".xml")).toList();
        }
        for (int port = 25330; port <= 25333; port++) {
            int free = Ports.free();
            for (Path f : configs) {
                Files.writeString(f, Files.readString(f).replace("port=\"" + port + "\"", "port=\"" + free + "\"")
                        .replace(":" + port + "/", ":" + free + "/"));
            }
        }
    }
}
