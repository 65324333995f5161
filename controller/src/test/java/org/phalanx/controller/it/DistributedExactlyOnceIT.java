package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once answers for every auto-commit request of a distributed virtual database: three
 * controller processes with two SQLite backends each, 8 clients inserting with generated keys and in
 * batches run element by element or as one transaction ({@link GroupInserts}) through the multi-host URL while the primary
 * is killed (kill -9) twice, then every member at once (so that the member that answers has restarted
 * since it applied what it is asked about). No client may be left with an unknown outcome, and every
 * answered insert must be there once with the keys its client was given.
 */
class DistributedExactlyOnceIT {
    private static final int CLIENTS = 8;

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
    void keysAndBatchesAreAnsweredOnceAcrossKillingThePrimaryAndTheWholeGroup() throws Exception {
        group = new ControllerGroup(dir, 2, false, false, false);
        group.startAll();
        assertTrue(group.primary(60) >= 0, "no primary was elected" + group.outputs());
        GroupInserts.create(group.url());
        // long enough for the drivers to wait out the restart of every member
        GroupInserts inserts = new GroupInserts(group.url() + "&failoverTimeout=120000", CLIENTS);
        inserts.start();
        try {
            for (int round = 0; round < 2; round++) {
                Thread.sleep(3_000);
                int primary = group.primary(30);
                assertTrue(primary >= 0, "no primary" + group.outputs());
                group.kill(primary);
                assertTrue(group.primary(30) >= 0, "no member took over" + group.outputs());
                Thread.sleep(3_000);
                group.start(primary);
            }
            Thread.sleep(5_000);
            for (int i = 0; i < group.size(); i++) {
                group.kill(i); // all at once: the answers now come from what the members kept on disk
            }
            group.startAll();
            assertTrue(group.primary(60) >= 0, "no primary after the whole group restarted" + group.outputs());
            Thread.sleep(5_000);
        } finally {
            inserts.stop();
        }
        inserts.check(group);
        System.out.println("exactly-once: " + inserts.summary() + "; drivers asked the new primary about lost"
                + " requests, answered: " + group.outcomesAnswered());
    }
}
