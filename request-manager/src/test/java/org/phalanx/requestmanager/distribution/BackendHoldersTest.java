package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.recovery.BackendHolding;

/** Who holds each backend a member declares, before and after take-overs and give-backs. */
class BackendHoldersTest {
    @TempDir
    Path dir;

    private static final List<BackendConfig> DECLARED = List.of(
            BackendConfig.builder("c2-db1", "jdbc:sqlite:a.db").build(),
            BackendConfig.builder("c1-db1", "jdbc:sqlite:b.db").build(),
            BackendConfig.builder("c1-db2", "jdbc:sqlite:c.db").build());

    private static List<String> names(List<BackendConfig> backends) {
        return backends.stream().map(BackendConfig::name).toList();
    }

    @Test
    void aMemberUsesItsOwnBackendsAndThoseItTookOverNeverAnotherMembers() throws Exception {
        BackendHolders c2 = new BackendHolders("bank", "c2", DECLARED, Map.of("c1-db1", "c1", "c1-db2", "c1"));
        assertEquals(List.of("c2-db1"), names(c2.usable()), "c1's backends stay c1's until taken over");
        assertEquals(List.of("c1-db1", "c1-db2"), c2.standbyOf("c1"));
        assertFalse(c2.takeChange());

        c2.apply(new GroupEntry.Takeover(3, "c1", "c2", List.of("c1-db1", "c1-db2")));
        assertTrue(c2.takeChange(), "a take-over is news for the watcher, once");
        assertFalse(c2.takeChange());
        assertEquals(List.of("c2-db1", "c1-db1", "c1-db2"), names(c2.usable()));
        assertEquals(List.of(), c2.standbyOf("c1"), "nothing of c1's left to take over");

        // c1 declares the same backends as its own: once c2 took them over, it leaves them alone
        BackendHolders c1 = new BackendHolders("bank", "c1", List.of(DECLARED.get(1), DECLARED.get(2)), Map.of());
        c1.state(c2.state()); // as a snapshot carries it
        assertTrue(c1.takeChange());
        assertEquals(List.of(), c1.usable());
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            c1.markHeldElsewhere(log);
            assertTrue(BackendHolding.isHeldElsewhere(log, "c1-db1"));
            assertEquals("elsewhere@c2", log.states().get("backend.c1-db2"));
        }
    }

    @Test
    void aGiveBackMakesTheBackendsTheirOwnersAgainOnEveryMember() throws Exception {
        Map<String, String> c1s = Map.of("c1-db1", "c1", "c1-db2", "c1");
        BackendHolders c2 = new BackendHolders("bank", "c2", DECLARED, c1s);
        BackendHolders c3 = new BackendHolders("bank", "c3", List.of(DECLARED.get(1)), Map.of("c1-db1", "c1"));
        BackendHolders c1 = new BackendHolders("bank", "c1", List.of(DECLARED.get(1), DECLARED.get(2)), Map.of());
        GroupEntry.Takeover takeover = new GroupEntry.Takeover(3, "c1", "c2", List.of("c1-db1", "c1-db2"));
        for (BackendHolders h : List.of(c1, c2, c3)) {
            h.apply(takeover);
        }
        assertEquals(Map.of("c1-db1", "c2", "c1-db2", "c2"), c2.takenFrom("c1"));
        assertEquals(Map.of("c1-db1", "c2"), c3.takenFrom("c1"), "c3 knows of the one it declares");
        assertEquals(Map.of("c1-db1", "c2", "c1-db2", "c2"), c1.takenFrom("c1"), "the owner knows of its own");
        assertEquals(Map.of(), c2.takenFrom("c3"));

        // a give-back by a member that does not hold them (a stale entry) changes nothing
        c2.apply(new GroupEntry.GiveBack(4, "c1", "c3", List.of("c1-db1", "c1-db2")));
        assertEquals(List.of("c2-db1", "c1-db1", "c1-db2"), names(c2.usable()));

        GroupEntry.GiveBack giveBack = new GroupEntry.GiveBack(4, "c1", "c2", List.of("c1-db1", "c1-db2"));
        for (BackendHolders h : List.of(c1, c2, c3)) {
            h.takeChange();
            h.apply(giveBack);
            assertTrue(h.takeChange(), "a give-back is news for the watcher: a follower follows other backends");
            assertEquals(Map.of(), h.takenFrom("c1"));
        }
        assertEquals(List.of("c2-db1"), names(c2.usable()), "the former holder no longer uses them");
        assertEquals(List.of("c1-db1", "c1-db2"), names(c1.usable()), "the owner uses them again");
        assertEquals("c1", c2.holderOf("c1-db1"));
        assertEquals(List.of("c1-db1", "c1-db2"), c2.standbyOf("c1"), "they can be taken over again");

        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            BackendHolding.heldElsewhere(log, "c1-db1", "c2"); // as saved while c2 held them
            BackendHolding.heldElsewhere(log, "c1-db2", "c2");
            c1.markHeldElsewhere(log);
            assertEquals("elsewhere@c2", log.states().get("backend.c1-db1"), "nothing held elsewhere now");
            c1.markHeldHere(log);
            assertEquals("enabled", log.states().get("backend.c1-db1"),
                    "followed again by its own record of applied positions");
            assertEquals("enabled", log.states().get("backend.c1-db2"));
            assertFalse(BackendHolding.heldHere(log, "c1-db1"), "once");
        }
    }

    @Test
    void anOwnerFollowsTheLogOnceAMarkOfItComesAfterTheTakeOverOfItsBackends() {
        BackendHolders c2 = new BackendHolders("bank", "c2", DECLARED, Map.of("c1-db1", "c1", "c1-db2", "c1"));
        c2.synced("c1");
        c2.synced("c3");
        c2.apply(new GroupEntry.Takeover(3, "c1", "c2", List.of("c1-db1", "c1-db2")));
        assertFalse(c2.follows("c1"), "its mark came from a run that was over when its backends were taken");
        assertTrue(c2.follows("c3"));
        c2.synced("c1"); // c1 restarted and follows the log
        assertTrue(c2.follows("c1"));

        // a snapshot carries it: a member restarted from one knows as much
        BackendHolders restarted = new BackendHolders("bank", "c2", DECLARED, Map.of("c1-db1", "c1", "c1-db2", "c1"));
        restarted.synced("c4"); // learnt before the snapshot is loaded, and not in it
        restarted.state(c2.state());
        assertEquals(new BackendHolders.State(Map.of("c1-db1", "c2", "c1-db2", "c2"), Set.of("c1", "c3")),
                restarted.state());
        assertTrue(restarted.follows("c1"));
        assertFalse(restarted.follows("c4"));
    }

    @Test
    void takeOversAndGiveBacksSurviveTheirEncoding() throws Exception {
        GroupEntry.GiveBack g = new GroupEntry.GiveBack(7, "c1", "c2", List.of("c1-db1", "c1-db2"));
        assertEquals(g, GroupEntry.decode(g.encode()));
        GroupEntry.Takeover t = new GroupEntry.Takeover(7, "c1", "c2", List.of("c1-db1"));
        assertEquals(t, GroupEntry.decode(t.encode()));
        GroupEntry.Sync sync = new GroupEntry.Sync(7, "c1");
        assertEquals(sync, GroupEntry.decode(sync.encode()));
    }
}
