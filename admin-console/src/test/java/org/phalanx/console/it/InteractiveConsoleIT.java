package org.phalanx.console.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.Launcher;

/**
 * The interactive console in a real terminal: a tmux pane (a pseudo-terminal) on a tmux server
 * of this test's own, driven by send-keys and read by capture-pane.
 */
class InteractiveConsoleIT {
    @TempDir
    Path dir;
    private final String socket = "phalanx-it-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    private boolean tmuxStarted;

    private List<String> tmux(String... args) {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket));
        command.addAll(List.of(args));
        return command;
    }

    private String run(String... args) throws Exception {
        ConsoleTestCluster.Run r = ConsoleTestCluster.run(tmux(args), Map.of());
        assertEquals(0, r.status(), "tmux " + String.join(" ", args) + ": " + r);
        return r.out();
    }

    private void keys(String... keys) throws Exception {
        List<String> args = new ArrayList<>(List.of("send-keys", "-t", "console"));
        args.addAll(List.of(keys));
        run(args.toArray(String[]::new));
    }

    private String screen() throws Exception {
        return run("capture-pane", "-p", "-t", "console");
    }

    /** Waits until the screen shows what is expected; fails with the screen after two minutes. */
    private String await(String what, Predicate<String> expected) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (true) {
            String s = screen();
            if (expected.test(s)) {
                return s;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("screen never showed " + what + ":\n" + s);
            }
            Thread.sleep(100);
        }
    }

    private String awaitText(String text) throws Exception {
        return await("'" + text + "'", s -> s.contains(text));
    }

    /** The last non-empty line of the screen. */
    private static String lastLine(String screen) {
        String[] lines = screen.stripTrailing().split("\n");
        return lines[lines.length - 1];
    }

    private void startConsole(ConsoleTestCluster cluster, Path history, String password) throws Exception {
        assumeTrue(ConsoleTestCluster.run(List.of("sh", "-c", "command -v tmux"), Map.of()).status() == 0,
                "tmux is not installed: the interactive console cannot be driven through a terminal");
        String console = Launcher.SCRIPT + " console --jmx " + cluster.jmx() + " --user admin --password "
                + password + " --history-file " + history;
        run("new-session", "-d", "-s", "console", "-x", "150", "-y", "45",
                // Ctrl-C also reaches the shell around the console: a trap (not an ignore, which the console
                // would inherit) keeps it alive to report the console's exit status
                "sh -c 'trap true INT; " + console + "; echo \"console exited with $?\"; sleep 600'");
        tmuxStarted = true;
    }

    @AfterEach
    void killTmux() throws Exception {
        if (tmuxStarted) {
            ConsoleTestCluster.run(tmux("kill-server"), Map.of());
        }
    }

    @Test
    void completionHistoryMonitorAndCtrlC() throws Exception {
        try (ConsoleTestCluster cluster = new ConsoleTestCluster(dir, "b1", "b2")) {
            try (Connection c = cluster.client(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            }
            Path history = dir.resolve("history");
            startConsole(cluster, history, ConsoleTestCluster.PASSWORD);
            awaitText("phalanx>");

            // completion: command, show topic, virtual database name
            keys("sho", "Tab");
            awaitText("phalanx> show"); // capture-pane drops the trailing space the completion added
            keys("ba", "Tab");
            awaitText("phalanx> show backends");
            keys("my", "Tab");
            awaitText("phalanx> show backends mydb");
            keys("Enter");
            String backends = await("the backends table", s -> s.contains("b2") && s.contains("ENABLED")
                    && lastLine(s).equals("phalanx>"));
            assertEquals("ENABLED", AddReplicaIT.stateOf(backends.substring(backends.indexOf("VDB")), "b1"));

            // backend names complete too, from the controller
            keys("disable mydb b", "Tab", "Tab");
            await("both backends offered", s -> s.contains("b1") && s.contains("b2") && s.contains("disable mydb b"));
            keys("C-u");

            // history: Up brings the last command back
            keys("C-l");
            keys("Up");
            awaitText("phalanx> show backends mydb");
            keys("C-u");

            // a failure is one line and the shell goes on
            keys("enable mydb nosuch", "Enter");
            awaitText("error: ");

            // monitor refreshes while clients write; Ctrl-C leaves it for the prompt
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                try (Connection c = cluster.client(); PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
                    for (int i = 0; !stop.get(); i++) {
                        ps.setInt(1, i);
                        ps.executeUpdate();
                    }
                } catch (Exception e) {
                    // the test's assertions say what matters
                }
            });
            writer.start();
            try {
                keys("C-l");
                keys("monitor mydb --interval 0.3", "Enter");
                String first = awaitText("refresh 2");
                int firstRefresh = refresh(first);
                String later = await("a later refresh", s -> refresh(s) > firstRefresh + 2);
                assertTrue(later.contains("BACKEND") && later.contains("WRITES/S"), later);
                long writes = writesOf(later);
                String evenLater = await("more writes counted", s -> writesOf(s) > writes);
                assertTrue(evenLater.contains("(q or Ctrl-C to leave)"), evenLater);
                keys("C-c");
                await("the prompt after monitor", s -> lastLine(s).equals("phalanx>"));
                String after = screen();
                Thread.sleep(1000);
                assertEquals(after, screen(), "monitor stopped refreshing");
            } finally {
                stop.set(true);
                writer.join();
            }

            // Ctrl-C on an empty line leaves the console cleanly
            keys("C-c");
            String end = awaitText("console exited with");
            assertTrue(end.contains("bye"), end);
            assertTrue(end.contains("console exited with 0"), end);
            String saved = Files.readString(history);
            assertTrue(saved.contains("show backends mydb"), saved);
            assertTrue(saved.contains("monitor mydb --interval 0.3"), saved);
        }
    }

    @Test
    void aWrongPasswordIsSaidInOneLineAndTheShellDoesNotOpen() throws Exception {
        try (ConsoleTestCluster cluster = new ConsoleTestCluster(dir, "b1")) {
            startConsole(cluster, dir.resolve("history"), "wrong");
            String end = awaitText("console exited with");
            assertTrue(end.contains("error: JMX access to " + cluster.jmx() + " refused: wrong user or password\n"
                    + "console exited with 1"), end);
        }
    }

    private static final Pattern REFRESH = Pattern.compile("refresh (\\d+)");
    private static final Pattern WRITES = Pattern.compile("writes (\\d+)");

    private static int refresh(String screen) {
        Matcher m = REFRESH.matcher(screen);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static long writesOf(String screen) {
        Matcher m = WRITES.matcher(screen);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
