package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.requestmanager.api.BackendState;

/**
 * Issue 6 end to end: clients write through the Phalanx driver while an operator (the Java API)
 * takes backends out, brings them back by replay, rebuilds one from a dump of a live replica, and
 * restarts the controller.
 */
class RecoveryIT {
    private static final List<String> BACKENDS = List.of("b1", "b2", "b3");

    @TempDir
    Path dir;

    /** Clients inserting (some in transactions that also update their earlier rows) until stopped. */
    private static BackgroundClients workload(PhalanxCluster cluster, int clientCount) {
        return new BackgroundClients(clientCount, (client, clients) -> {
            Random random = new Random(client);
            try (Connection c = cluster.connect();
                 PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)");
                 PreparedStatement update = c.prepareStatement(
                         "UPDATE t SET v = v + 1 WHERE client = ? AND id < ?")) {
                for (int i = 0; !clients.stopped(); i++) {
                    int id = client * 1_000_000 + i;
                    BackgroundClients.insertRow(c, insert, update, client, id, i, random.nextInt(4) == 0);
                    clients.acknowledged.add(id);
                    Thread.sleep(1);
                }
            }
        });
    }

    private static void createTable(PhalanxCluster cluster) throws SQLException {
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, client INTEGER NOT NULL, v INTEGER NOT NULL)");
        }
    }

    private Set<Integer> ids(PhalanxCluster cluster, String backend) throws SQLException {
        Set<Integer> ids = new HashSet<>();
        try (Connection c = cluster.files.direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM t")) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids;
    }

    /** After the controller stopped: every backend file identical and holding every acknowledged write. */
    private void assertConverged(PhalanxCluster cluster, Set<Integer> acknowledged) throws SQLException {
        PhalanxClusterChecks.identical(dir, BACKENDS, "t", "id");
        for (String b : BACKENDS) {
            Set<Integer> missing = new TreeSet<>(acknowledged);
            missing.removeAll(ids(cluster, b));
            assertTrue(missing.isEmpty(), missing.size() + " acknowledged writes missing on " + b + ": " + missing);
        }
    }

    private static void assertStates(VirtualDatabase vdb, BackendState b1, BackendState b2, BackendState b3) {
        assertEquals(Map.of("b1", b1, "b2", b2, "b3", b3), vdb.backendStates());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"<recoveryLog dir=\"log\"/>",
            "<recoveryLog url=\"jdbc:sqlite:log.db\" tablePrefix=\"vdb_\" dumpDir=\"backups\"/>"})
    void backendsLeaveAndComeBackWhileClientsKeepWriting(String recoveryLog) throws Exception {
        PhalanxCluster cluster = PhalanxCluster.withRecoveryLog(dir, "first", recoveryLog, BACKENDS.toArray(new String[0]));
        Set<Integer> acknowledged;
        try (cluster) {
            VirtualDatabase vdb = cluster.vdb();
            assertTrue(vdb.hasRecoveryLog());
            createTable(cluster);
            try (BackgroundClients workload = workload(cluster, 4)) {
                acknowledged = workload.acknowledged;
                workload.progress(100);

                // an operator takes b3 out at a checkpoint; writes go on without it
                vdb.disableBackend("b3");
                assertStates(vdb, BackendState.ENABLED, BackendState.ENABLED, BackendState.DISABLED);
                long checkpoint = vdb.checkpointOf("b3").orElseThrow();
                assertTrue(checkpoint > 0 && checkpoint <= vdb.lastPosition());
                int rowsOnB3 = ids(cluster, "b3").size();
                workload.progress(150);
                assertEquals(rowsOnB3, ids(cluster, "b3").size(), "a disabled backend receives nothing");

                // and brings it back by replaying the log
                vdb.enableBackend("b3");
                assertStates(vdb, BackendState.ENABLED, BackendState.ENABLED, BackendState.ENABLED);
                assertTrue(vdb.checkpointOf("b3").isEmpty());
                workload.progress(100);

                // b2 is rebuilt from a dump of b1, taken while b1 keeps serving
                vdb.disableBackend("b2");
                workload.progress(50);
                List<long[]> progress = new ArrayList<>();
                DumpInfo dump = vdb.backup("b1", "b1-live.dump", null,
                        (done, total, unit) -> progress.add(new long[] {done, total}));
                assertStates(vdb, BackendState.ENABLED, BackendState.DISABLED, BackendState.ENABLED);
                assertEquals("portable", dump.format());
                assertEquals("dump-b1-live.dump", dump.checkpointName());
                assertFalse(progress.isEmpty(), "the dump reports its progress");
                assertTrue(Files.isRegularFile(vdb.dumpDir().orElseThrow().resolve("b1-live.dump")));
                List<VirtualDatabase.Dump> dumps = vdb.listDumps();
                assertEquals(List.of("b1-live.dump"), dumps.stream().map(VirtualDatabase.Dump::name).toList());
                assertEquals(dump.checkpointPosition(), dumps.get(0).info().checkpointPosition());
                workload.progress(50);

                SQLException holdsData = assertThrows(SQLException.class,
                        () -> vdb.restore("b2", "b1-live.dump", false, null));
                assertTrue(holdsData.getMessage().contains("force"), holdsData.getMessage());
                assertStates(vdb, BackendState.ENABLED, BackendState.DISABLED, BackendState.ENABLED);

                DumpInfo restored = vdb.restore("b2", "b1-live.dump", true, null);
                assertEquals(dump.checkpointPosition(), restored.checkpointPosition());
                assertEquals(dump.checkpointPosition(), vdb.checkpointOf("b2").orElseThrow());
                workload.progress(50);
                vdb.enableBackend("b2");
                assertStates(vdb, BackendState.ENABLED, BackendState.ENABLED, BackendState.ENABLED);
                workload.progress(100);
            }
        }
        assertTrue(acknowledged.size() > 500, "the workload ran: " + acknowledged.size());
        assertConverged(cluster, acknowledged);
    }

    /**
     * A restart keeps backend states and the log: a backend disabled before the stop stays
     * disabled with its checkpoint and is enabled by replay after; dumps taken before are still
     * listed and restorable; with enableSyncedOnStart="false" every backend waits for the operator.
     */
    @Test
    void aRestartKeepsBackendStatesTheLogAndTheDumps() throws Exception {
        PhalanxCluster cluster = PhalanxCluster.withRecoveryLog(dir, "first", "<recoveryLog dir=\"log\"/>",
                BACKENDS.toArray(new String[0]));
        Set<Integer> acknowledged = new HashSet<>();
        try (cluster) {
            createTable(cluster);
            insert(cluster, 1, 50, acknowledged);
            VirtualDatabase vdb = cluster.vdb();
            vdb.disableBackend("b3");
            long checkpoint = vdb.checkpointOf("b3").orElseThrow();
            insert(cluster, 51, 100, acknowledged);
            DumpInfo dump = vdb.backup("b1", "before-restart", "sqlite-native", null);
            assertEquals("sqlite-native", dump.format());
            long position = vdb.lastPosition();

            cluster.restart();
            vdb = cluster.vdb();
            assertStates(vdb, BackendState.ENABLED, BackendState.ENABLED, BackendState.DISABLED);
            assertEquals(checkpoint, vdb.checkpointOf("b3").orElseThrow(), "b3 kept its checkpoint");
            assertEquals(position, vdb.lastPosition(), "the log's positions go on");
            assertEquals(Set.of(range(1, 50)), Set.copyOf(ids(cluster, "b3")), "b3 received nothing");
            insert(cluster, 101, 150, acknowledged);
            vdb.enableBackend("b3"); // replays 51..150: entries from before and after the restart
            assertStates(vdb, BackendState.ENABLED, BackendState.ENABLED, BackendState.ENABLED);
            insert(cluster, 151, 160, acknowledged);

            // a dump taken before the restart rebuilds b2
            assertEquals(List.of("before-restart"), vdb.listDumps().stream().map(VirtualDatabase.Dump::name).toList());
            vdb.disableBackend("b2");
            insert(cluster, 161, 170, acknowledged);
            vdb.restore("b2", "before-restart", true, null);
            assertEquals(Set.of(range(1, 100)), Set.copyOf(ids(cluster, "b2")), "b2 holds the dump");
            vdb.enableBackend("b2");
            insert(cluster, 171, 180, acknowledged);

            // with enableSyncedOnStart="false", every backend waits for the operator after a clean stop
            cluster.writeVirtualDatabase("<recoveryLog dir=\"log\" enableSyncedOnStart=\"false\"/>");
            cluster.restart();
            VirtualDatabase waiting = cluster.vdb();
            assertStates(waiting, BackendState.DISABLED, BackendState.DISABLED, BackendState.DISABLED);
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                SQLException none = assertThrows(SQLException.class, () -> s.executeQuery("SELECT COUNT(*) FROM t"));
                assertEquals("08006", none.getSQLState(), none.getMessage());
            }
            for (String b : BACKENDS) {
                assertTrue(waiting.checkpointOf(b).isPresent(), b + " can be replayed from where it stopped");
                waiting.enableBackend(b);
            }
            assertStates(waiting, BackendState.ENABLED, BackendState.ENABLED, BackendState.ENABLED);
            insert(cluster, 181, 200, acknowledged);
        }
        assertEquals(200, acknowledged.size());
        assertConverged(cluster, acknowledged);
    }

    private static void insert(PhalanxCluster cluster, int from, int to, Set<Integer> acknowledged)
            throws SQLException {
        try (Connection c = cluster.connect();
             PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, 0, ?)")) {
            for (int id = from; id <= to; id++) {
                insert.setInt(1, id);
                insert.setInt(2, id);
                insert.executeUpdate();
                acknowledged.add(id);
            }
        }
    }

    private static Integer[] range(int from, int to) {
        Integer[] ids = new Integer[to - from + 1];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = from + i;
        }
        return ids;
    }
}
