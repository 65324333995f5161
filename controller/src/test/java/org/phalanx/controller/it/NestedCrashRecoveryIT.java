package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.ControllerTables;

/**
 * The top of a {@link ControllerTree} killed with SIGKILL in the middle of a write workload
 * ({@link CounterWorkload}: non-idempotent increments, transactions, rollbacks), with
 * {@code waitPolicy="first"} and its link to sub2 slowed so that sub2 is well behind. Each
 * sub-controller's virtual database holds the top's record of the log positions it applied
 * ({@code phalanx_upper_applied_<vdb>}, written in each unit's transaction), so the restarted top
 * recovers both controller backends as it recovers real databases: each is given exactly the units
 * it lacks and enabled, no restore. Checked on the four SQLite leaves: identical, every
 * acknowledged increment counted once, nothing of a rolled-back transaction.
 */
class NestedCrashRecoveryIT {
    private static final String RAIDB1 =
            "<requestManager replication=\"RAIDb-1\" waitPolicy=\"first\" balancing=\"least-pending\" lockTimeout=\"20s\"/>";
    private static final Pattern RECOVERED = Pattern.compile("backend (\\w+) recovered after the crash \\((\\d+) missing");

    @TempDir
    Path dir;

    @Test
    void aKilledTopControllerRecoversItsControllerBackendsByTheirRecords() throws Exception {
        CounterWorkload workload = new CounterWorkload(4);
        Leaves leaves = new Leaves(dir);
        Map<String, Long> replayed = new HashMap<>();
        try (ControllerTree tree = new ControllerTree(dir, RAIDB1, "sub2", 15)) {
            try (Connection c = tree.connect()) {
                workload.createTables(c);
            }
            CounterWorkload.Run clients = workload.start(tree::connect);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!(clients.done.get() >= 200
                    && highestApplied(leaves, "l1a", "sub1") - highestApplied(leaves, "l2a", "sub2") >= 40)) {
                assertTrue(System.nanoTime() < deadline, "the workload did not get going with sub2 behind: "
                        + clients.done.get() + " requests");
                Thread.sleep(20);
            }
            clients.killing();
            tree.killTop();
            clients.awaitClients();

            Path log = tree.restartTop("after-kill.out");
            assertEquals(Map.of("sub1", "ENABLED", "sub2", "ENABLED"), tree.top().getBackendStates(),
                    "recovered by crash recovery: " + Files.readString(log));
            assertEquals(0, tree.top().listDumps().length, "no dump was taken or restored");
            Matcher m = RECOVERED.matcher(Files.readString(log));
            while (m.find()) {
                replayed.put(m.group(1), Long.parseLong(m.group(2)));
            }
            CounterWorkload.Run again = workload.start(tree::connect); // the tree serves on, over both subs
            again.awaitProgress(100, () -> "after the restart");
            again.stop();
        } // the top stops first, then the subs: the leaves are final
        assertEquals(java.util.Set.of("sub1", "sub2"), replayed.keySet(), "both recovered after the crash");
        assertTrue(replayed.get("sub2") > 0, "sub2 was behind and was given what it lacked: " + replayed);
        for (String table : new String[] {"counters", "items"}) {
            leaves.assertIdentical(table, "id", ControllerTree.ALL_LEAVES);
        }
        for (String leaf : ControllerTree.ALL_LEAVES) {
            workload.checkAndSettle(leaves.files(leaf), leaf, "after the top's crash, on leaf " + leaf);
        }
        assertTrue(workload.committedTransactions() > 20, "transactions committed: " + workload.committedTransactions());
    }

    /** The highest position of the top's log a leaf holds in its sub's record, read bypassing every controller. */
    private static long highestApplied(Leaves leaves, String leaf, String sub) {
        try (Connection c = leaves.leaf(leaf); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT MAX(position) FROM " + ControllerTables.UPPER_APPLIED_PREFIX + sub)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException busyOrNotYet) {
            return -1;
        }
    }
}
