package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.db.TestDatabases;

/**
 * A member of a group takes over the backends of a dead peer that it can reach (issue 19: "a
 * controller may take over the backends of a dead peer that it can reach (PostgreSQL/MariaDB),
 * bringing them to the log position first"): c1 holds a PostgreSQL and a MariaDB database, which
 * c2 and c3 also declare ({@code owner="c1"}). Under the bank load c1 is killed; the new primary
 * takes its backends over (they fell behind meanwhile) and serves with them; c1, restarted, leaves
 * them alone and serves nothing; the holder is killed and restarted too. Every replica ends identical.
 */
class DistributedTakeoverIT {
    private static final List<String> DATABASES = List.of("takeover_pg", "takeover_maria");

    @TempDir
    Path dir;
    private ControllerGroup group;

    @AfterEach
    void stop() {
        if (group != null) {
            group.close();
        }
        TestDatabases.dropPostgres(DATABASES.get(0));
        TestDatabases.dropMariaDb(DATABASES.get(1));
    }

    @Test
    void thePrimaryTakesOverADeadMembersBackendsAndTheOwnerLeavesThemAlone() throws Exception {
        List<String> c1Backends = List.of(TestDatabases.createPostgres(DATABASES.get(0)),
                TestDatabases.createMariaDb(DATABASES.get(1), TestDatabases.MARIADB_BINARY_COLLATION));
        group = new ControllerGroup(dir, 2, List.of(c1Backends), false, false, false);
        group.declareStandby(1, 0);
        group.declareStandby(2, 0);
        group.startAll();
        assertTrue(group.primary(60) >= 0, "no primary was elected" + group.outputs());
        GroupBank.create(group.url());
        GroupBank bank = new GroupBank(group.url(), 8);
        bank.start();
        int holder;
        try {
            Thread.sleep(2_000);
            group.kill(0);
            Thread.sleep(3_000); // c1's backends fall behind meanwhile
            holder = group.primary(20);
            assertTrue(holder > 0, "another member took over as primary" + group.outputs());
            int other = 3 - holder;
            try (ControllerJmx jmx = group.jmx(holder)) {
                Exception refused = assertThrows(Exception.class, () -> jmx.takeOverBackends(group.name(other)));
                assertTrue(ControllerJmx.messages(refused).contains("is connected to group"), ControllerJmx.messages(refused));
                assertArrayEquals(new String[] {"c1-db1", "c1-db2"}, jmx.takeOverBackends("c1"));
                assertEquals("ENABLED", backends(jmx.group()).get("c1-db1"), "taken into service on the primary");
            }
            Thread.sleep(2_000);
            group.start(0); // the owner comes back: its backends are held by another now
            awaitOutput(0, "is held by member " + group.name(holder));
            Thread.sleep(2_000);
            group.kill(holder); // the holder goes too: its backends wait for it
            Thread.sleep(3_000);
            group.start(holder);
            Thread.sleep(4_000);
        } finally {
            bank.stop();
        }
        bank.check(group);
        GroupBank.assertReplicasIdentical(group); // c1's backends included: kept current by their holder
        try (ControllerJmx jmx = group.jmx(0)) {
            assertTrue(backends(jmx.group()).getOrDefault("c1-db1", "").startsWith("elsewhere@"),
                    "the owner leaves the taken backends alone: " + backends(jmx.group()));
        }
        assertTrue(group.primary(5) != 0, "a member whose backends were all taken over serves nothing");
        System.out.println("take-over: " + bank.summary());
    }

    private static Map<String, String> backends(CompositeData group) {
        TabularData table = (TabularData) group.get("backends");
        Map<String, String> states = new TreeMap<>();
        for (Object row : table.values()) {
            CompositeData r = (CompositeData) row;
            states.put((String) r.get("key"), (String) r.get("value"));
        }
        return states;
    }

    private void awaitOutput(int member, String text) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < end) {
            if (group.process(member).output().contains(text)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(group.name(member) + " did not say '" + text + "'" + group.outputs());
    }
}
