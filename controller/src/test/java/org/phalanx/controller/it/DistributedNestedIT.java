package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * A distributed virtual database as another controller's backend (docs/distribution.md, nesting):
 * the top controller reaches the group through a multi-host URL, and when the group's primary is
 * killed under load its backend driver fails over — transactions in flight are rolled back (40001),
 * auto-commit writes and commits answered exactly once — and the backend stays enabled.
 */
class DistributedNestedIT {
    @TempDir
    Path dir;

    @Test
    void aGroupAsABackendGoesOnThroughThePrimarysDeath() throws Exception {
        try (ControllerGroup group = new ControllerGroup(dir.resolve("group"), 1, false, false, false)) {
            group.startAll();
            assertTrue(group.primary(60) >= 0, "no primary was elected" + group.outputs());
            Path top = Files.createDirectories(dir.resolve("top"));
            int port = Ports.free();
            int jmx = Ports.free();
            String groupUrl = group.url().substring(0, group.url().indexOf('?'));
            Files.writeString(top.resolve("vdb.xml"), """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="bank">
                      <users><user name="app" password="secret"/></users>
                      <backends>
                        <backend name="group" url="%s" user="app" password="secret"/>
                      </backends>
                      <requestManager replication="RAIDb-1" waitPolicy="all"/>
                    </virtualDatabase>
                    """.formatted(groupUrl));
            ControllerGroup.writeControllerXml(top, port, jmx);
            try (ControllerProcess topController = ControllerProcess.launch(top.resolve("controller.xml"),
                    top.resolve("controller.out"), port)) {
                String topUrl = "jdbc:phalanx://127.0.0.1:" + port + "/bank?user=app&password=secret";
                GroupBank bank = bankWhileThePrimaryIsKilled(group, topUrl, Duration.ZERO);
                String outputs = group.outputs() + "\n--- top ---\n" + topController.outputTail(40);
                assertTrue(bank.unexpected.isEmpty(), "unexpected errors: " + bank.unexpected + outputs);
                try (ControllerJmx admin = ControllerJmx.connect(jmx, "admin", "secret", "bank")) {
                    assertEquals(Map.of("group", "ENABLED"), admin.states(), "the nested group stays enabled" + outputs);
                }
                bank.check(group);
                assertTrue(bank.acknowledged.size() > 20, "transfers went through: " + bank.summary());
                System.out.println("nested group: " + bank.summary());
            }
            GroupBank.assertReplicasIdentical(group);
        }
    }

    /**
     * A group whose members' backends are themselves controllers (docs/distribution.md, nested
     * groups): each of the three members has a sub-controller over one SQLite leaf as its backend.
     * Under the bank load the primary is killed and, once another member serves, restarted: the
     * followers keep their controller backends current from the group's log and the new primary's
     * start-up recovery works on them (both by the record each member keeps in its sub-controller's
     * virtual database), and the killed member catches up as a follower. Every acknowledged
     * transfer and note is there once, the total exact, the three leaves identical.
     */
    @Test
    void aGroupOverSubControllersFollowsItsLogThroughThePrimarysDeath() throws Exception {
        List<SubController> subs = new ArrayList<>();
        try {
            List<List<String>> backends = new ArrayList<>();
            List<String> leaves = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                SubController sub = new SubController(dir.resolve("subs"), "s" + i, List.of("leaf"));
                subs.add(sub);
                sub.start();
                backends.add(List.of(sub.url() + "?user=app&password=secret"));
                leaves.add(sub.leafUrl("leaf"));
            }
            try (ControllerGroup group = new ControllerGroup(dir.resolve("group"), 1, backends, false, false, false)) {
                group.startAll();
                assertTrue(group.primary(60) >= 0, "no primary was elected" + group.outputs());
                // the restarted member catches up as a follower, over its sub-controller
                GroupBank bank = bankWhileThePrimaryIsKilled(group, group.url(), Duration.ofSeconds(2));
                bank.check(group);
                assertTrue(bank.acknowledged.size() > 20, "transfers went through: " + bank.summary());
                GroupBank.assertReplicasIdentical(leaves, group);
            }
        } finally {
            subs.forEach(SubController::close);
        }
    }

    /**
     * Runs 8 bank clients through {@code url} while the group's primary is killed (-9) and, 4 s
     * later, started again (it catches up as a follower); they stop {@code afterRestart} later.
     */
    private static GroupBank bankWhileThePrimaryIsKilled(ControllerGroup group, String url, Duration afterRestart)
            throws Exception {
        GroupBank.create(url);
        GroupBank bank = new GroupBank(url, 8);
        bank.start();
        try {
            Thread.sleep(3_000);
            int killed = group.primary(10);
            group.kill(killed);
            assertTrue(group.primary(60) >= 0, "another member took over" + group.outputs());
            Thread.sleep(4_000);
            group.start(killed);
            Thread.sleep(afterRestart.toMillis());
        } finally {
            bank.stop();
        }
        return bank;
    }
}
