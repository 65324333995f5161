package org.phalanx.console.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console in one-shot mode, as a script would run it, adds a replica while clients keep
 * writing: backup of a live backend, restore onto the new one, enable (replay); then every
 * backend is enabled and holds the same rows.
 */
class AddReplicaIT {
    @TempDir
    Path dir;

    @Test
    void backupRestoreEnableUnderTrafficLeavesEveryBackendEnabledAndIdentical() throws Exception {
        try (ConsoleTestCluster cluster = new ConsoleTestCluster(dir, "b1", "b2")) {
            try (Connection c = cluster.client(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, writer INTEGER, v TEXT)");
                for (int i = 0; i < 200; i++) {
                    s.executeUpdate("INSERT INTO t VALUES (" + i + ", 0, 'before')");
                }
            }
            // a new, empty backend joins a virtual database that has history: it waits for a dump
            cluster.writeVirtualDatabase("b1", "b2", "b3");
            cluster.restart();
            ConsoleTestCluster.Run before = cluster.console("backends", "mydb");
            assertEquals(0, before.status(), before.toString());
            assertTrue(stateOf(before.out(), "b3").equals("DISABLED"), before.toString());

            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong nextId = new AtomicLong(1000);
            AtomicLong acknowledged = new AtomicLong(200);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> writers = new ArrayList<>();
            for (int w = 1; w <= 2; w++) {
                int writer = w;
                Thread t = new Thread(() -> {
                    try (Connection c = cluster.client();
                         PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?, 'during')")) {
                        while (!stop.get()) {
                            ps.setLong(1, nextId.incrementAndGet());
                            ps.setInt(2, writer);
                            ps.executeUpdate();
                            acknowledged.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                }, "writer-" + w);
                writers.add(t);
                t.start();
            }
            try {
                waitForMoreThan(acknowledged, 300);
                ConsoleTestCluster.Run backup = cluster.console("backup", "mydb", "b1", "replica-seed");
                assertEquals(0, backup.status(), backup.toString());
                assertTrue(backup.out().startsWith("dump replica-seed: "), backup.toString());

                ConsoleTestCluster.Run dumps = cluster.console("show", "dumps", "mydb");
                assertEquals(0, dumps.status(), dumps.toString());
                assertTrue(dumps.out().contains("replica-seed"), dumps.toString());

                ConsoleTestCluster.Run restore = cluster.console("restore", "mydb", "b3", "replica-seed");
                assertEquals(0, restore.status(), restore.toString());
                assertTrue(restore.out().contains("restored onto b3"), restore.toString());

                long beforeEnable = acknowledged.get();
                waitForMoreThan(acknowledged, beforeEnable + 50); // writes b3 must get by replay
                ConsoleTestCluster.Run enable = cluster.console("enable", "mydb", "b3");
                assertEquals(0, enable.status(), enable.toString());
                assertEquals("backend b3 of mydb is ENABLED\n", enable.out(), enable.toString());
                waitForMoreThan(acknowledged, acknowledged.get() + 50); // and live writes after
            } finally {
                stop.set(true);
                for (Thread t : writers) {
                    t.join();
                }
            }
            assertEquals(null, failure.get(), "the clients saw no error");

            ConsoleTestCluster.Run after = cluster.console("show", "backends", "mydb");
            assertEquals(0, after.status(), after.toString());
            for (String b : List.of("b1", "b2", "b3")) {
                assertEquals("ENABLED", stateOf(after.out(), b), after.toString());
            }
            ConsoleTestCluster.Run stats = cluster.console("show", "stats", "mydb");
            assertEquals(0, stats.status(), stats.toString());
            assertTrue(stats.out().contains("INSERT INTO t VALUES (?, ?, ?)"), stats.toString());
            assertTrue(stats.out().contains("answer time (request read to reply written): p50 "), stats.toString());

            assertEquals(acknowledged.get(), cluster.count("b1", "t"));
            String expected = cluster.checksum("b1", "t");
            assertEquals(expected, cluster.checksum("b2", "t"));
            assertEquals(expected, cluster.checksum("b3", "t"), "the new replica holds exactly the same rows");
        }
    }

    private static void waitForMoreThan(AtomicLong counter, long target) throws InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (counter.get() <= target) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the clients stopped writing at " + counter.get());
            }
            Thread.sleep(20);
        }
    }

    /** The STATE column of a backend's row in 'show backends' output. */
    static String stateOf(String table, String backend) {
        for (String line : table.split("\n")) {
            String[] cells = line.trim().split("\\s+");
            if (cells.length >= 3 && cells[1].equals(backend)) {
                return cells[2];
            }
        }
        throw new AssertionError("no row for backend " + backend + " in:\n" + table);
    }
}
