package org.phalanx.testkit.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/phalanx}, the launcher users run, for tests that run it as they do (it needs the
 * packaged jars: integration tests only).
 */
public final class Launcher {
    /** The repository root: the nearest folder up from the working directory holding {@code bin/phalanx}. */
    public static final Path ROOT = root();
    public static final Path SCRIPT = ROOT.resolve("bin/phalanx");

    private Launcher() {
    }

    private static Path root() {
        Path cwd = Path.of("").toAbsolutePath();
        for (Path p = cwd; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("bin/phalanx"))) {
                return p;
            }
        }
        // tests run in a module folder one level below the root
        return cwd.getParent();
    }

    /** {@code bin/phalanx args...} as a command line. */
    public static List<String> command(String... args) {
        List<String> command = new ArrayList<>();
        command.add(SCRIPT.toString());
        command.addAll(List.of(args));
        return command;
    }

    /**
     * Starts {@code bin/phalanx args...} (e.g. {@code demo}) with both output streams going to
     * {@code output}. A controller is better started with {@link ControllerProcess#launcher}.
     */
    public static Process start(Path output, String... args) throws IOException {
        return new ProcessBuilder(command(args)).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }
}
