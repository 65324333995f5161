package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A distributed virtual database under a bank workload (issue 19, done-when 1): three controller
 * processes with two SQLite backends each, 16 clients transferring money through a multi-host URL
 * while the primary is killed (kill -9), later a follower, and both restarted. Afterwards every
 * acknowledged transfer is there, the total is exact, and all six replicas are identical.
 */
class DistributedBankIT {
    private static final int CLIENTS = 16;
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
    void everyAcknowledgedTransferSurvivesKillingThePrimaryAndAFollower() throws Exception {
        group = new ControllerGroup(dir, BACKENDS, false, false, false);
        group.startAll();
        int first = group.primary(60);
        assertTrue(first >= 0, "no primary was elected" + group.outputs());
        GroupBank.create(group.url());
        GroupBank bank = new GroupBank(group.url(), CLIENTS);
        bank.start();
        try {
            group.killAndRestartPrimaryThenFollower(Duration.ofSeconds(3));
        } finally {
            bank.stop();
        }
        assertTrue(bank.acknowledged.size() > 100, "too few transfers went through: " + bank.summary());
        bank.check(group);
        GroupBank.assertReplicasIdentical(group);
        System.out.println("distributed bank: " + bank.summary() + "; drivers asked the new primary about lost"
                + " requests, answered: " + group.outcomesAnswered());
    }
}
