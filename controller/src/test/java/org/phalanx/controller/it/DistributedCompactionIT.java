package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
 * every replica ends identical.
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
