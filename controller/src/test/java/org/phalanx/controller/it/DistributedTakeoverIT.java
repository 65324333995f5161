package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * Then the way back: once c1 is back, the holder gives the backends back to it (docs/distribution.md,
 * Giving backends back); c1 catches them up by their own records, serves reads and the primary role
 * with them, and the former holder leaves them alone, also across restarts on both sides.
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
        GroupBank bank = startUnderLoad();
        int holder;
        try {
            holder = killC1AndTakeOverItsBackends();
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

    @Test
    void theHolderGivesTheBackendsBackAndTheReturnedOwnerServesWithThem() throws Exception {
        GroupBank bank = startUnderLoad();
        int holder;
        try {
            holder = killC1AndTakeOverItsBackends();
            int other = 3 - holder;
            try (ControllerJmx jmx = group.jmx(holder)) {
                assertRefused(() -> jmx.giveBackBackends("c1"), "is not connected to group");
                assertRefused(() -> jmx.giveBackBackends(group.name(other)), "nothing to give back");
            }
            try (ControllerJmx jmx = group.jmx(other)) {
                assertRefused(() -> jmx.giveBackBackends("c1"), "is not the primary");
            }
            Thread.sleep(2_000);
            group.start(0); // the owner comes back, and leaves its backends alone while another holds them
            awaitOutput(0, "is held by member " + group.name(holder));
            try (ControllerJmx jmx = group.jmx(holder)) {
                assertArrayEquals(new String[] {"c1-db1", "c1-db2"}, giveBackOnceFollowing(jmx));
                assertEquals("DISABLED", backends(jmx.group()).get("c1-db1"), "the former holder stops using it");
                assertRefused(() -> jmx.giveBackBackends("c1"), "nothing to give back");
                jmx.compactGroupLog(); // as primary (a follower under this load rarely finds a quiet moment to dump):
                                       // its restart below reads the give-back from its snapshot
            }
            awaitOutput(0, "is held by c1 again"); // it follows them by their own records
            // c1 is a candidate for the primary role again: hand the role on until it takes it (its start-up
            // brings its backends to the log's end, as after a crash)
            for (int round = 0; round < 6 && group.primary(20) != 0; round++) {
                try (ControllerJmx jmx = group.jmx(group.primary(20))) {
                    jmx.stepDown();
                }
                Thread.sleep(3_000);
            }
            assertEquals(0, group.primary(20), "c1 serves as primary with the backends given back" + group.outputs());
            try (ControllerJmx jmx = group.jmx(0)) {
                assertEquals("ENABLED", backends(jmx.group()).get("c1-db1"), "in service on c1: " + backends(jmx.group()));
                assertEquals("ENABLED", backends(jmx.group()).get("c1-db2"));
            }
            Thread.sleep(3_000);
            group.kill(holder); // the former holder restarted: it leaves them alone
            Thread.sleep(2_000);
            group.start(holder);
            awaitOutput(holder, "joined group");
            Thread.sleep(4_000);
            group.kill(0); // the owner restarted: the give-back is in its log, it follows its backends again
            Thread.sleep(3_000);
            group.start(0);
            Thread.sleep(5_000);
        } finally {
            bank.stop();
        }
        bank.check(group);
        GroupBank.assertReplicasIdentical(group); // c1's backends included: current with their owner again
        // c1 serves read-only sessions with them (its only backends), as current as the group with
        // followerReads=current, whether it is primary or follower now
        long seenOnPrimary;
        try (Connection c = DriverManager.getConnection(group.url())) {
            seenOnPrimary = one(c, "SELECT COUNT(*) FROM transfers");
        }
        try (Connection c = DriverManager.getConnection(direct(0,
                "readOnly=true&followerReads=current&failoverTimeout=60000"))) {
            assertEquals(GroupBank.ACCOUNTS * GroupBank.BALANCE, one(c, "SELECT SUM(bal) FROM acc"));
            assertEquals(seenOnPrimary, one(c, "SELECT COUNT(*) FROM transfers"), "c1 reads current data");
        } catch (SQLException e) {
            throw new AssertionError("c1 does not serve reads with its backends: " + e.getMessage() + group.outputs(), e);
        }
        try (ControllerJmx jmx = group.jmx(holder)) {
            // its request manager keeps it disabled if it is primary; as a follower it does not even open it
            String state = backends(jmx.group()).get("c1-db1");
            assertTrue(Set.of("DISABLED", "elsewhere@c1").contains(state), "the former holder leaves them alone: "
                    + backends(jmx.group()));
        }
        try (ControllerJmx jmx = group.jmx(0)) {
            // in service if it is primary again, followed if it is a follower
            assertTrue(Set.of("ENABLED", "enabled").contains(backends(jmx.group()).get("c1-db1")),
                    "c1 uses its backends: " + backends(jmx.group()));
        }
        System.out.println("give-back: " + bank.summary());
    }

    /** The group (c1 over a PostgreSQL and a MariaDB database, which c2 and c3 declare), under the bank load. */
    private GroupBank startUnderLoad() throws Exception {
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
        return bank;
    }

    /** c1 killed under the load; the new primary takes its backends over (refused first for a member connected). */
    private int killC1AndTakeOverItsBackends() throws Exception {
        Thread.sleep(2_000);
        group.kill(0);
        Thread.sleep(3_000); // c1's backends fall behind meanwhile
        int holder = group.primary(20);
        assertTrue(holder > 0, "another member took over as primary" + group.outputs());
        int other = 3 - holder;
        try (ControllerJmx jmx = group.jmx(holder)) {
            assertRefused(() -> jmx.takeOverBackends(group.name(other)), "is connected to group");
            assertArrayEquals(new String[] {"c1-db1", "c1-db2"}, jmx.takeOverBackends("c1"));
            assertEquals("ENABLED", backends(jmx.group()).get("c1-db1"), "taken into service on the primary");
        }
        return holder;
    }

    /**
     * Gives c1's backends back, once the holder has applied a sync mark of the restarted c1 (refused
     * until then: it does not follow the log yet).
     */
    private String[] giveBackOnceFollowing(ControllerJmx jmx) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return jmx.giveBackBackends("c1");
            } catch (Exception e) {
                if (!ControllerJmx.messages(e).contains("has not followed the log") || System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private static void assertRefused(org.junit.jupiter.api.function.Executable action, String why) {
        Exception refused = assertThrows(Exception.class, action);
        assertTrue(ControllerJmx.messages(refused).contains(why), ControllerJmx.messages(refused));
        assertTrue(ControllerJmx.messages(refused).contains("55000"), "with its SQLState: " + ControllerJmx.messages(refused));
    }

    private String direct(int member, String options) {
        return "jdbc:phalanx://127.0.0.1:" + group.clientPort(member) + "/" + ControllerGroup.VDB
                + "?user=app&password=secret&" + options;
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
