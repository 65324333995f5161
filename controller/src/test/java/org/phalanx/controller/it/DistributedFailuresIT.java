package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;
import static org.phalanx.controller.it.Sql.update;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A distributed virtual database losing members in other ways (issue 19, done-when 2 and 3): a
 * primary cut off (SIGSTOP, a partition's stand-in) while the rest go on writing, then back; two
 * data controllers and a witness surviving the loss of one data controller.
 */
class DistributedFailuresIT {
    private static final int BACKENDS = 2;

    @TempDir
    Path dir;
    private ControllerGroup group;

    @AfterEach
    void stop() {
        if (group != null) {
            group.close();
        }
    }

    @Test
    void aPrimaryCutOffForTwentySecondsIsReplacedWritesNothingMoreAndCatchesUp() throws Exception {
        group = new ControllerGroup(dir, BACKENDS, false, false, false);
        group.startAll();
        int primary = group.primary(60);
        assertTrue(primary >= 0, "no primary was elected" + group.outputs());
        GroupBank.create(group.url());
        // a request to the stopped primary is answered by no one: the clients give up on it after 3 s and fail over
        GroupBank bank = new GroupBank(group.url() + "&socketTimeout=3000", 8);
        String direct = "jdbc:phalanx://127.0.0.1:" + group.clientPort(primary) + "/" + ControllerGroup.VDB
                + "?user=app&password=secret&failoverTimeout=0";
        try (Connection stranded = DriverManager.getConnection(direct)) {
            bank.start();
            Thread.sleep(2_000);
            stranded.setAutoCommit(false);
            update(stranded, "UPDATE acc SET bal = bal + 1000000 WHERE id = 1"); // its lock holds the others up
            group.signal(primary, "STOP");
            int during;
            try {
                Thread.sleep(5_000);
                int before = bank.acknowledged.size();
                Thread.sleep(15_000);
                during = bank.acknowledged.size() - before;
                int next = group.primary(1);
                assertTrue(next >= 0 && next != primary, "another member serves while the primary is cut off"
                        + group.outputs());
            } finally {
                group.signal(primary, "CONT");
            }
            assertTrue(during > 0, "the others went on writing while the primary was cut off: " + during); // (20 on a loaded machine)
            // the transaction it held never commits: the group ended it, and its controller steps down,
            // closing the session (08) or, when the commit comes first, failing its append (outcome unknown)
            SQLException refused = assertThrows(SQLException.class, stranded::commit);
            assertTrue(refused.getSQLState().startsWith("08") || refused.getSQLState().startsWith("40")
                            || "58030".equals(refused.getSQLState()) && refused.getMessage().contains("outcome is unknown"),
                    refused.getSQLState() + " " + refused.getMessage());
            Thread.sleep(3_000);
        } finally {
            bank.stop();
        }
        bank.check(group);
        try (Connection c = DriverManager.getConnection(group.url())) {
            assertTrue(one(c, "SELECT bal FROM acc WHERE id = 1") < 1_000_000, "the stranded transaction left nothing");
        }
        assertThrows(SQLException.class, () -> DriverManager.getConnection(direct).close(),
                "the old primary no longer serves sessions");
        GroupBank.assertReplicasIdentical(group);
        System.out.println("primary cut off: " + bank.summary());
    }

    /**
     * The two followers frozen together (SIGSTOP) while the primary goes on: the primary, alone in
     * its view, loses the log's leadership and steps down; the followers, resumed, never saw it go
     * and still take it for the leader. With jgroups-raft's ELECTION no election followed in about
     * one case in three and the group stayed without a leader; ELECTION2's pre-vote (the leader
     * they name says it is not) starts one. Two rounds, each must serve writes again.
     */
    @Test
    void aPrimaryIsolatedWhileTheMajorityWasFrozenIsFollowedByANewLeader() throws Exception {
        group = new ControllerGroup(dir, BACKENDS, false, false, false);
        group.startAll();
        assertTrue(group.primary(60) >= 0, "no primary was elected" + group.outputs());
        GroupBank.create(group.url());
        GroupBank bank = new GroupBank(group.url() + "&socketTimeout=3000", 8);
        bank.start();
        try {
            for (int round = 1; round <= 2; round++) {
                int primary = group.primary(30);
                assertTrue(primary >= 0, "round " + round + ": a member serves" + group.outputs());
                int[] frozen = {(primary + 1) % 3, (primary + 2) % 3};
                for (int f : frozen) {
                    group.signal(f, "STOP");
                }
                try {
                    Thread.sleep(8_000);
                } finally {
                    for (int f : frozen) {
                        group.signal(f, "CONT");
                    }
                }
                int before = bank.acknowledged.size();
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (bank.acknowledged.size() < before + 10 && System.nanoTime() < end) {
                    Thread.sleep(200);
                }
                assertTrue(bank.acknowledged.size() >= before + 10, "round " + round + ": writes go on once the"
                        + " frozen members are back" + group.outputs());
            }
        } finally {
            bank.stop();
        }
        bank.check(group);
        GroupBank.assertReplicasIdentical(group);
        System.out.println("frozen majority: " + bank.summary());
    }

    @Test
    void aWitnessLetsTwoDataControllersSurviveTheLossOfOne() throws Exception {
        group = new ControllerGroup(dir, BACKENDS, false, false, true);
        group.startAll();
        int primary = group.primary(60);
        assertTrue(primary >= 0 && primary < 2, "a data member is primary" + group.outputs());
        // the witness's vote is what lets the other data member take over: it must have joined first
        // (under CI load it once had not, 7 s after the data members formed the group)
        group.awaitConnected(primary, 3);
        GroupBank.create(group.url());
        GroupBank bank = new GroupBank(group.url(), 8);
        bank.start();
        try {
            Thread.sleep(2_000);
            group.kill(primary);
            Thread.sleep(4_000);
            int before = bank.acknowledged.size();
            Thread.sleep(4_000);
            assertTrue(bank.acknowledged.size() > before, "writes go on with one data controller and the witness"
                    + group.outputs());
            assertEquals(1 - primary, group.primary(1), "the other data controller took over");
            group.start(primary);
            Thread.sleep(4_000);
        } finally {
            bank.stop();
        }
        bank.check(group);
        GroupBank.assertReplicasIdentical(group);
        System.out.println("witness group: " + bank.summary());
    }
}
