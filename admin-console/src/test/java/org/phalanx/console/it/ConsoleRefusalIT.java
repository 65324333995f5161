package org.phalanx.console.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.Launcher;
import org.phalanx.testkit.process.Ports;

/** Refused JMX access, an unreachable controller and bad commands: one line on stderr, a non-zero status. */
class ConsoleRefusalIT {
    @TempDir
    static Path dir;
    private static ConsoleTestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = new ConsoleTestCluster(dir, "b1");
    }

    @AfterAll
    static void stop() throws Exception {
        cluster.close();
    }

    private static ConsoleTestCluster.Run console(Map<String, String> env, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Launcher.SCRIPT.toString(), "console"));
        command.addAll(List.of(args));
        return ConsoleTestCluster.run(command, env);
    }

    @Test
    void aWrongPasswordIsRefusedInOneLine() throws Exception {
        ConsoleTestCluster.Run run = console(Map.of(), "--jmx", cluster.jmx(), "--user", "admin", "--password", "wrong",
                "show", "vdbs");
        assertEquals(1, run.status(), run.toString());
        assertEquals(List.of("error: JMX access to " + cluster.jmx() + " refused: wrong user or password"),
                run.errLines());
        assertEquals("", run.out());
    }

    @Test
    void anUnknownUserIsRefusedInOneLine() throws Exception {
        ConsoleTestCluster.Run run = console(Map.of("PHALANX_JMX_PASSWORD", ConsoleTestCluster.PASSWORD), "--jmx",
                cluster.jmx(), "--user", "intruder", "backends", "mydb");
        assertEquals(1, run.status(), run.toString());
        assertEquals(List.of("error: JMX access to " + cluster.jmx() + " refused: wrong user or password"),
                run.errLines());
    }

    @Test
    void withoutCredentialsNothingIsSent() throws Exception {
        ConsoleTestCluster.Run noPassword = console(Map.of(), "--jmx", cluster.jmx(), "--user", "admin", "show", "vdbs");
        assertEquals(1, noPassword.status(), noPassword.toString());
        assertEquals(List.of("error: a password is needed: --password, PHALANX_JMX_PASSWORD, or a terminal to ask on"),
                noPassword.errLines());
        ConsoleTestCluster.Run noUser = console(Map.of("PHALANX_JMX_PASSWORD", "x"), "--jmx", cluster.jmx(), "show", "vdbs");
        assertEquals(1, noUser.status(), noUser.toString());
        assertEquals(1, noUser.errLines().size(), noUser.toString());
    }

    @Test
    void failuresAndUsageErrorsAreOneLineToo() throws Exception {
        ConsoleTestCluster.Run unknownVdb = cluster.console("enable", "nosuch", "b1");
        assertEquals(1, unknownVdb.status(), unknownVdb.toString());
        assertEquals(List.of("error: no virtual database nosuch on this controller"), unknownVdb.errLines());

        ConsoleTestCluster.Run unknownBackend = cluster.console("disable", "mydb", "nosuch");
        assertEquals(1, unknownBackend.status(), unknownBackend.toString());
        assertEquals(1, unknownBackend.errLines().size(), unknownBackend.toString());
        assertEquals(true, unknownBackend.err().contains("has no backend nosuch"), unknownBackend.toString());

        ConsoleTestCluster.Run notDistributed = cluster.console("show", "group", "mydb");
        assertEquals(1, notDistributed.status(), notDistributed.toString());
        assertEquals(List.of("error: virtual database mydb is not distributed"), notDistributed.errLines());
        ConsoleTestCluster.Run noGroup = cluster.console("step-down", "mydb");
        assertEquals(1, noGroup.status(), noGroup.toString());
        assertEquals(1, noGroup.errLines().size(), noGroup.toString());
        assertEquals(true, noGroup.err().contains("is not distributed"), noGroup.toString());

        ConsoleTestCluster.Run missingArgument = cluster.console("restore", "mydb", "b1");
        assertEquals(2, missingArgument.status(), missingArgument.toString());
        assertEquals(List.of("error: Missing required parameter: '<dump>' (usage: help restore)"),
                missingArgument.errLines());

        ConsoleTestCluster.Run unreachable = console(Map.of("PHALANX_JMX_PASSWORD", "x"), "--jmx",
                "127.0.0.1:" + Ports.free(), "--user", "admin", "show", "vdbs");
        assertEquals(1, unreachable.status(), unreachable.toString());
        assertEquals(1, unreachable.errLines().size(), unreachable.toString());
        assertEquals(true, unreachable.err().contains("connection refused"), unreachable.toString());
    }

    @Test
    void checkpointsConfigAndSqlInOneShotMode() throws Exception {
        ConsoleTestCluster.Run create = cluster.console("sql", "mydb", "--user", "app", "--password", "pw", "-e",
                "CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, name TEXT)");
        assertEquals(0, create.status(), create.toString());
        assertEquals(0, cluster.console("sql", "mydb", "--user", "app", "--password", "pw", "-e",
                "INSERT OR REPLACE INTO items VALUES (1, 'one')").status());
        ConsoleTestCluster.Run select = cluster.console("sql", "mydb", "--user", "app", "--password", "pw", "-e",
                "SELECT id, name FROM items");
        assertEquals("id  name\n 1  one\n(1 row)\n", select.out(), select.toString());

        ConsoleTestCluster.Run checkpoint = cluster.console("checkpoint", "mydb", "before-upgrade");
        assertEquals(0, checkpoint.status(), checkpoint.toString());
        ConsoleTestCluster.Run checkpoints = cluster.console("show", "checkpoints", "mydb");
        assertEquals(true, checkpoints.out().contains("before-upgrade"), checkpoints.toString());

        ConsoleTestCluster.Run config = cluster.console("show", "config");
        assertEquals(0, config.status(), config.toString());
        assertEquals(true, config.out().contains("<admin user=\"admin\" password=\"***\"/>"), config.toString());
        assertEquals(false, config.out().contains(ConsoleTestCluster.PASSWORD), "passwords are not shown");

        ConsoleTestCluster.Run monitor = cluster.console("monitor", "mydb", "--interval", "0.2", "--count", "2");
        assertEquals(0, monitor.status(), monitor.toString());
        assertEquals(true, monitor.out().contains("refresh 2"), monitor.toString());
    }
}
