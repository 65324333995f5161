package org.phalanx.console.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remaining operator commands in one-shot mode: dumps deleted, log purged, cache flushed, a
 * virtual database loaded and unloaded, and the controller process shut down over JMX.
 */
class ConsoleOperationsIT {
    @TempDir
    Path dir;

    private static ConsoleTestCluster.Run ok(ConsoleTestCluster.Run run) {
        assertEquals(0, run.status(), run.toString());
        return run;
    }

    /** A script piped into the shell: its lines run in order, and no terminal warning is printed. */
    @Test
    void aShellFedByAPipeRunsItsLinesQuietly() throws Exception {
        try (ConsoleTestCluster cluster = new ConsoleTestCluster(dir, "b1")) {
            ConsoleTestCluster.Run run = ok(cluster.shell("show backends\ncheckpoint mydb piped\nshow checkpoints mydb\n"));
            assertTrue(run.out().contains("b1") && run.out().contains("ENABLED"), run.toString());
            assertTrue(run.out().contains("piped"), run.toString());
            assertEquals("", run.err(), run.toString());
        }
    }

    @Test
    void dumpsLogCacheLoadUnloadAndShutdown() throws Exception {
        try (ConsoleTestCluster cluster = new ConsoleTestCluster(dir, "b1", "b2")) {
            try (Connection c = cluster.client(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
                for (int i = 0; i < 20; i++) {
                    s.executeUpdate("INSERT INTO t VALUES (" + i + ")");
                }
            }
            ok(cluster.console("backup", "mydb", "b2", "old"));
            assertTrue(Files.exists(dir.resolve("dumps/old")));
            assertTrue(ok(cluster.console("show", "checkpoints", "mydb")).out().contains("dump-old"));
            assertEquals("dump old deleted\n", ok(cluster.console("delete-dump", "mydb", "old")).out());
            assertFalse(Files.exists(dir.resolve("dumps/old")));
            assertFalse(ok(cluster.console("show", "checkpoints", "mydb")).out().contains("dump-old"),
                    "the dump's checkpoint is released");
            ok(cluster.console("checkpoint", "mydb", "now"));
            assertTrue(ok(cluster.console("purge-log", "mydb")).out().matches("\\d+ log entries deleted\\n"));
            assertEquals("cache of mydb flushed\n", ok(cluster.console("flush-cache", "mydb")).out());

            Files.writeString(dir.resolve("other.xml"), """
                    <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="other">
                      <users><user name="app" password="pw"/></users>
                      <backends><backend name="o1" url="jdbc:sqlite:o1.db"/></backends>
                    </virtualDatabase>
                    """);
            assertEquals("virtual database other loaded\n", ok(cluster.console("load", "other.xml")).out());
            assertTrue(ok(cluster.console("show", "vdbs")).out().contains("other"));
            assertTrue(ok(cluster.console("show", "config", "other")).out().contains("<backend name=\"o1\""));
            ok(cluster.console("unload", "other", "--mode", "force"));
            assertFalse(ok(cluster.console("show", "vdbs")).out().contains("other"));
            ConsoleTestCluster.Run again = cluster.console("unload", "other");
            assertEquals(1, again.status(), again.toString());

            ok(cluster.console("shutdown", "--mode", "safe"));
            assertEquals(0, cluster.awaitExit(), "the controller process ends after a shutdown over JMX");
        }
    }
}
