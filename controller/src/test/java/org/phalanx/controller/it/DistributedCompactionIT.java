package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A distributed virtual database whose members compact their copies of the group's log under load
 * (issue 19: "the log is compacted at checkpoints"; "a controller joining a running vdb catches up
 * ... a dump plus log position from a peer when the log was compacted"): a follower that was down
 * while the others compacted, and a fourth controller that never saw the log, both catch up from
 * the leader's snapshot — its dump restored onto their backends, then the entries after it — and
 * every replica ends identical. A witness compacts its log too, and a member it cannot serve from its
 * snapshot (no data) catches up from a data member's.
 */
class DistributedCompactionIT {
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
    void membersBehindACompactedLogCatchUpFromADumpAndEndIdentical() throws Exception {
        group = new ControllerGroup(dir, BACKENDS, false, false, false);
        group.distributionAttributes("compactAfter=\"400\"");
        group.startAll();
        int primary = group.primary(60);
        assertTrue(primary >= 0, "no primary was elected" + group.outputs());
        GroupBank.create(group.url());
        GroupBank bank = new GroupBank(group.url(), 8);
        bank.start();
        int away = (primary + 1) % 3;
        int joiner;
        try {
            Thread.sleep(1_000);
            group.kill(away);
            // the two others compact by themselves (every 400 entries) and when asked
            awaitCompacted(primary);
            try (ControllerJmx jmx = group.jmx(primary)) {
                assertTrue(jmx.compactGroupLog() > 0, "the operator's compaction dumps at a log position");
            }
            int other = 3 - primary - away;
            try (ControllerJmx jmx = group.jmx(other)) {
                assertTrue(jmx.compactGroupLog() > 0, "a follower compacts too, dumping one of its own backends");
            }
            group.start(away);
            joiner = group.newMember();
            group.start(joiner);
            try (ControllerJmx jmx = group.jmx(primary)) {
                jmx.addGroupMember(group.name(joiner));
            }
            awaitCompacted(joiner);
            Thread.sleep(3_000);
        } finally {
            bank.stop();
        }
        bank.check(group);
        GroupBank.assertReplicasIdentical(group);
        for (int i : new int[] {away, joiner}) {
            assertTrue(group.process(i).output().contains("restores its backends from the group's dump"),
                    group.name(i) + " caught up from the dump" + group.outputs());
        }
        System.out.println("compaction: " + bank.summary());
    }

    /**
     * A witness compacts its log too (by itself every 400 entries, and when asked) while a data
     * member is down, then leads the log: it does once it alone holds the longest log, as here, where
     * the primary is killed and the member that was down comes back. The witness's snapshot carries
     * no data, so it cannot bring that member up to date: it hands the leadership over instead, which
     * comes back to it while it alone holds the longest log, and goes to the former primary once it
     * is back, whose snapshot carries a dump; the member restores it and ends identical.
     */
    @Test
    void aWitnessCompactsItsLogAndAMemberItCannotServeCatchesUpFromADataMember() throws Exception {
        group = new ControllerGroup(dir, BACKENDS, false, false, true);
        group.distributionAttributes("compactAfter=\"400\"");
        group.startAll();
        int primary = group.primary(60);
        assertTrue(primary == 0 || primary == 1, "a data member is primary" + group.outputs());
        int away = 1 - primary;
        int witness = 2;
        GroupBank.create(group.url());
        GroupBank bank = new GroupBank(group.url(), 8);
        bank.start();
        try {
            Thread.sleep(1_000);
            group.kill(away);
            long awayHolds;
            try (ControllerJmx jmx = group.jmx(witness)) {
                awayHolds = (Long) jmx.group().get("commitIndex");
            }
            group.awaitFirstIndexAbove(witness, awayHolds, Duration.ofSeconds(60)); // the witness compacts by itself, under the load
            try (ControllerJmx jmx = group.jmx(witness)) {
                long first = (Long) jmx.group().get("firstIndex");
                assertTrue(jmx.compactGroupLog() >= first, "a witness compacts when asked, answering its first index");
            }
            group.awaitFirstIndexAbove(primary, awayHolds, Duration.ofSeconds(60)); // so does the primary: the member away needs its dump
        } finally {
            bank.stop();
        }
        group.kill(primary);
        group.start(away);
        awaitLeader(witness); // its log is longer than that of the member back
        group.start(primary);
        awaitCaughtUp(away, witness);
        bank.check(group);
        GroupBank.assertReplicasIdentical(group);
        assertTrue(group.process(witness).output().contains("it hands the log's leadership to a data member"),
                "the witness stepped down rather than send its snapshot" + group.outputs());
        assertTrue(group.process(away).output().contains("restores its backends from the group's dump"),
                group.name(away) + " caught up from the former primary's dump" + group.outputs());
        System.out.println("witness compaction: " + bank.summary());
    }

    /** Waits until member i leads the group's log (as {@code show group} reports it). */
    private void awaitLeader(int member) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        CompositeData status;
        try (ControllerJmx jmx = group.jmx(member)) {
            do {
                status = jmx.group();
                if (group.name(member).equals(status.get("logLeader"))) {
                    return;
                }
                Thread.sleep(100);
            } while (System.nanoTime() < end);
        }
        throw new AssertionError(group.name(member) + " did not lead the log; its group status: " + status + group.outputs());
    }

    /** Waits until member i has applied the group's log as far as member {@code ahead} had committed it when asked. */
    private void awaitCaughtUp(int member, int ahead) throws Exception {
        long target;
        try (ControllerJmx jmx = group.jmx(ahead)) {
            target = (Long) jmx.group().get("commitIndex");
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < end) {
            try (ControllerJmx jmx = group.jmx(member)) {
                if ((Long) jmx.group().get("appliedIndex") >= target) {
                    return;
                }
            } catch (Exception notYetUp) {
                // its JMX starts with the controller
            }
            Thread.sleep(200);
        }
        throw new AssertionError(group.name(member) + " did not catch up to index " + target + group.outputs());
    }

    /** Waits until member i's copy of the group's log is compacted (its log starts after index 1, at a dump). */
    private void awaitCompacted(int member) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (ControllerJmx jmx = group.jmx(member)) {
            while (System.nanoTime() < end) {
                CompositeData view = jmx.group();
                if ((Long) view.get("firstIndex") > 1 && (Long) view.get("dumpPosition") > 0) {
                    return;
                }
                Thread.sleep(200);
            }
        }
        throw new AssertionError(group.name(member) + "'s log was not compacted" + group.outputs());
    }
}
