package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.jmx.DumpDescription;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;

/**
 * Issue 9 (vertical scalability) end to end: a top controller whose backends are two
 * sub-controllers, each replicating over two SQLite leaves; three controller processes.
 */
class ControllerTreeIT {
    /** RAIDb-2 at the top: one table on each sub-controller only, everything else on both. */
    private static final String PLACED = """
            <requestManager replication="RAIDb-2" waitPolicy="first" balancing="least-pending" lockTimeout="20s">
                <createTable pattern="only_one" policy="backends" backends="sub1"/>
                <createTable pattern="only_two" policy="backends" backends="sub2"/>
                <createTable policy="all"/>
              </requestManager>""";

    @TempDir
    Path dir;

    /** Done-when 1: the concurrent mixed workload through the tree; each leaf holds what its placement says. */
    @Test
    void mixedWorkloadLeavesEachLeafWithItsPlacementAndReplicasIdentical() throws Exception {
        try (ControllerTree tree = new ControllerTree(dir, PLACED)) {
            MixedWorkloadIT.createTables(tree::connect);
            try (Connection c = tree.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE only_one (id INTEGER PRIMARY KEY, client INTEGER, v TEXT)");
                s.executeUpdate("CREATE TABLE only_two (id INTEGER PRIMARY KEY, client INTEGER, v TEXT)");
            }
            ExecutorService pool = Executors.newFixedThreadPool(MixedWorkloadIT.CLIENTS);
            List<Future<Integer>> results = new ArrayList<>();
            for (int client = 0; client < MixedWorkloadIT.CLIENTS; client++) {
                int id = client;
                results.add(pool.submit(() -> MixedWorkloadIT.runClient(tree::connect, id)
                        + placedWrites(tree, id)));
            }
            int reads = 0;
            for (Future<Integer> f : results) {
                reads += f.get(5, TimeUnit.MINUTES);
            }
            pool.shutdown();
            assertTrue(reads > MixedWorkloadIT.CLIENTS * MixedWorkloadIT.OPERATIONS / 10, "the workload read: " + reads);
        }
        // every controller stopped (top first): whatever was queued has reached the leaves
        Set<String> both = Set.of("items", "events");
        Leaves leaves = new Leaves(dir);
        assertEquals(union(both, "only_one"), leaves.tablesOn("l1a"));
        assertEquals(union(both, "only_one"), leaves.tablesOn("l1b"));
        assertEquals(union(both, "only_two"), leaves.tablesOn("l2a"));
        assertEquals(union(both, "only_two"), leaves.tablesOn("l2b"));
        leaves.assertIdentical("items", "id", ControllerTree.ALL_LEAVES);
        leaves.assertIdentical("events", "id", ControllerTree.ALL_LEAVES);
        leaves.assertIdentical("only_one", "id", List.of("l1a", "l1b"));
        leaves.assertIdentical("only_two", "id", List.of("l2a", "l2b"));
        assertTrue(leaves.count("l1a", "only_one") > 0 && leaves.count("l2a", "only_two") > 0);
    }

    /** Writes to the tables placed on one sub-controller each, reading them back in a transaction. */
    private static int placedWrites(ControllerTree tree, int client) throws SQLException {
        int reads = 0;
        try (Connection c = tree.connect();
             PreparedStatement one = c.prepareStatement("INSERT INTO only_one VALUES (?, ?, ?)");
             PreparedStatement two = c.prepareStatement("INSERT INTO only_two VALUES (?, ?, ?)");
             PreparedStatement count = c.prepareStatement("SELECT COUNT(*) FROM only_one WHERE client = ?")) {
            for (int i = 0; i < 10; i++) {
                c.setAutoCommit(i % 2 == 0);
                for (PreparedStatement insert : List.of(one, two)) {
                    insert.setInt(1, client * 1000 + i);
                    insert.setInt(2, client);
                    insert.setString(3, "row " + i);
                    insert.executeUpdate();
                }
                count.setInt(1, client);
                try (ResultSet rs = count.executeQuery()) {
                    rs.next();
                    assertEquals(i + 1, rs.getInt(1), "client " + client + " reads its writes");
                    reads++;
                }
                if (!c.getAutoCommit()) {
                    c.commit();
                }
            }
        }
        return reads;
    }

    /** Done-when 2: concurrent transfers through the tree keep the total on every leaf. */
    @Test
    void bankInvariantHoldsOnEveryLeaf() throws Exception {
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        try (ControllerTree tree = new ControllerTree(dir, PLACED)) {
            BankInvariantIT.run(tree::connect, acknowledged);
        }
        Leaves leaves = new Leaves(dir);
        for (String leaf : ControllerTree.ALL_LEAVES) {
            BankInvariantIT.assertBalancesExplained(leaves.leaf(leaf), leaf, acknowledged);
        }
        leaves.assertIdentical("accounts", "id", ControllerTree.ALL_LEAVES);
        leaves.assertIdentical("transfers", "id", ControllerTree.ALL_LEAVES);
    }

    /**
     * Done-when 3: a sub-controller killed with kill -9 under load is disabled at the top and
     * clients see no error; restarted, restored from a dump of its sibling and replayed, it is
     * back in service and its leaves hold exactly what the others hold.
     */
    @Test
    void aKilledSubControllerIsDisabledThenRestoredAndReplayed() throws Exception {
        Set<Integer> acknowledged;
        AtomicInteger reads = new AtomicInteger();
        try (ControllerTree tree = new ControllerTree(dir, PLACED)) {
            VirtualDatabaseMXBean top = tree.top(); // the operator's view, over JMX
            try (Connection c = tree.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, client INTEGER NOT NULL, v INTEGER NOT NULL)");
            }
            try (BackgroundClients workload = workload(tree, 6, reads)) {
                acknowledged = workload.acknowledged;
                workload.progress(200);

                tree.kill("sub1");
                awaitState(top, "sub1", "DISABLED");
                assertEquals("ENABLED", top.getBackendStates().get("sub2"));
                workload.progress(200);

                // the operator brings it back: restart, restore a dump of the live sibling, replay
                tree.startSub("sub1");
                DumpDescription dump = top.backup("sub2", "sub2-live", "");
                assertEquals("SQLITE", dump.sourceEngine(), "the dump speaks the leaves' SQL");
                workload.progress(100);
                top.restore("sub1", "sub2-live", true);
                workload.progress(100);
                top.enableBackend("sub1");
                assertEquals(Map.of("sub1", "ENABLED", "sub2", "ENABLED"), top.getBackendStates());
                workload.progress(200);
            }
        }
        assertTrue(reads.get() > 100, "clients kept reading: " + reads.get());
        Leaves leaves = new Leaves(dir);
        leaves.assertIdentical("t", "id", ControllerTree.ALL_LEAVES);
        for (String leaf : ControllerTree.ALL_LEAVES) {
            Set<Integer> missing = new TreeSet<>(acknowledged);
            missing.removeAll(leaves.ids(leaf));
            assertTrue(missing.isEmpty(), missing.size() + " acknowledged writes missing on leaf " + leaf + ": " + missing);
        }
    }

    private static void awaitState(VirtualDatabaseMXBean vdb, String backend, String state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!state.equals(vdb.getBackendStates().get(backend)) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(state, vdb.getBackendStates().get(backend), "backend " + backend);
    }

    /** Clients inserting (some in transactions) and reading back how many rows they have, until stopped. */
    private static BackgroundClients workload(ControllerTree tree, int clientCount, AtomicInteger reads) {
        return new BackgroundClients(clientCount, (client, clients) -> {
            try (Connection c = tree.connect();
                 PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)");
                 PreparedStatement update = c.prepareStatement("UPDATE t SET v = v + 1 WHERE client = ? AND id < ?");
                 PreparedStatement count = c.prepareStatement("SELECT COUNT(*) FROM t WHERE client = ?")) {
                for (int i = 0; !clients.stopped(); i++) {
                    int id = client * 1_000_000 + i;
                    BackgroundClients.insertRow(c, insert, update, client, id, i, i % 4 == 0);
                    clients.acknowledged.add(id);
                    count.setInt(1, client);
                    try (ResultSet rs = count.executeQuery()) {
                        rs.next();
                        assertEquals(i + 1, rs.getInt(1), "client " + client + " reads its writes");
                        reads.incrementAndGet();
                    }
                }
            }
        });
    }

    private static Set<String> union(Set<String> a, String b) {
        Set<String> u = new TreeSet<>(a);
        u.add(b);
        return u;
    }
}
