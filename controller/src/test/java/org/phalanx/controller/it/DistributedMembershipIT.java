package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Set;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operating a distributed virtual database's group over JMX under load (issue 19, done-when 3):
 * the group view, a fourth controller joining and ending identical, the primary handing its role
 * over.
 */
class DistributedMembershipIT {
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
    void aFourthControllerJoinsUnderLoadAndThePrimaryHandsItsRoleOver() throws Exception {
        group = new ControllerGroup(dir, BACKENDS, false, false, false);
        group.startAll();
        int primary = group.primary(60);
        assertTrue(primary >= 0, "no primary was elected" + group.outputs());
        GroupBank.create(group.url());
        GroupBank bank = new GroupBank(group.url(), 8);
        bank.start();
        int joiner;
        try {
            Thread.sleep(2_000);
            joiner = group.newMember();
            group.start(joiner);
            try (ControllerJmx jmx = group.jmx(primary)) {
                jmx.addGroupMember(group.name(joiner));
                CompositeData view = jmx.group();
                assertEquals(group.name(primary), view.get("primary"));
                assertEquals(Set.of("c1", "c2", "c3", "c4"), Set.of((String[]) view.get("members")));
                if (group.name(primary).equals(view.get("logLeader"))) {
                    // the log's leader knows how far each member's copy reaches
                    TabularData indexes = (TabularData) view.get("memberIndexes");
                    assertTrue(indexes.containsKey(new Object[] {group.name(primary)}), indexes.toString());
                }
            }
            group.awaitConnected(joiner, 4);
            Thread.sleep(3_000);
            try (ControllerJmx jmx = group.jmx(primary)) {
                jmx.stepDown();
            }
            Thread.sleep(1_000);
            int next = group.primary(20);
            assertTrue(next >= 0 && next != primary, "another member took the role over" + group.outputs());
            Thread.sleep(3_000);
        } finally {
            bank.stop();
        }
        bank.check(group);
        GroupBank.assertReplicasIdentical(group);
        try (ControllerJmx jmx = group.jmx(joiner)) {
            CompositeData view = jmx.group();
            assertEquals("c4", view.get("member"));
            assertTrue((Long) view.get("logPosition") > 0, "the joiner holds the log");
        }
        System.out.println("membership: " + bank.summary());
    }
}
