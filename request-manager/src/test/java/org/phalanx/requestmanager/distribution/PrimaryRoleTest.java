package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The primary role as the log decides it: the first claim of each epoch wins, whatever arrives after. */
class PrimaryRoleTest {
    @Test
    void theFirstClaimOfAnEpochWinsAndLateOnesChangeNothing() {
        PrimaryRole r = PrimaryRole.NONE.after(new GroupEntry.Claim(1, "c1", "run-a"));
        assertEquals(1, r.epoch());
        assertTrue(r.heldBy("c1", "run-a"));
        assertFalse(r.heldBy("c1", "run-b"), "a restarted c1 is not the primary its earlier run was");
        assertSame(r, r.after(new GroupEntry.Claim(1, "c2", "run-x")), "a second claim of epoch 1 is too late");
        assertSame(r, r.after(new GroupEntry.Claim(3, "c2", "run-x")), "a claim must name the next epoch");
        PrimaryRole next = r.after(new GroupEntry.Claim(2, "c2", "run-x"));
        assertTrue(next.heldBy("c2", "run-x"));
    }

    @Test
    void aResignationLeavesTheRoleFreeAndRemembersWhoLeft() {
        PrimaryRole r = PrimaryRole.NONE.after(new GroupEntry.Claim(1, "c1", "run-a"))
                .after(GroupEntry.Claim.resign(2, "c1"));
        assertEquals(2, r.epoch());
        assertNull(r.member());
        assertEquals("c1", r.resigned());
        assertTrue(r.after(new GroupEntry.Claim(3, "c2", "run-x")).heldBy("c2", "run-x"));
    }

    @Test
    void entriesRoundTrip() throws Exception {
        GroupEntry.Claim claim = new GroupEntry.Claim(7, "c3", "run");
        assertEquals(claim, GroupEntry.decode(claim.encode()));
        GroupEntry.Logged logged = new GroupEntry.Logged(7, new byte[] {1, 2, 3});
        GroupEntry.Logged back = (GroupEntry.Logged) GroupEntry.decode(logged.encode());
        assertEquals(7, back.epoch());
        assertArrayEquals(new byte[] {1, 2, 3}, back.entry());
    }
}
