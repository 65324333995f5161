package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
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
    void theLogsLeaderClaimsAFreeRoleElseTheFirstDataMemberConnected() {
        List<String> data = List.of("c1", "c2", "c3");
        PrimaryRole gone = PrimaryRole.NONE.after(new GroupEntry.Claim(1, "c1", "run-a"));
        Set<String> withoutC1 = Set.of("c2", "c3");
        assertTrue(gone.shouldBeClaimedBy("c3", "run-c", withoutC1, data, "c3", false), "the leader");
        assertFalse(gone.shouldBeClaimedBy("c2", "run-b", withoutC1, data, "c3", false));
        assertTrue(gone.shouldBeClaimedBy("c2", "run-b", withoutC1, data, "w", false), "a witness leads: the first data member");
        assertFalse(gone.shouldBeClaimedBy("c2", "run-b", Set.of("c1", "c2", "c3"), data, "c2", false), "c1's run is connected");
        PrimaryRole resigned = PrimaryRole.NONE.after(new GroupEntry.Claim(1, "c2", "run-b"))
                .after(GroupEntry.Claim.resign(2, "c2"));
        assertFalse(resigned.shouldBeClaimedBy("c2", "run-b", withoutC1, data, "w", false), "it gave up: another first");
        assertTrue(resigned.shouldBeClaimedBy("c3", "run-c", withoutC1, data, "w", false));
        assertTrue(resigned.shouldBeClaimedBy("c2", "run-b", Set.of("c2"), data, "c2", false), "alone, it tries again");
    }

    /** The role free too long here: the preferred member cannot claim (still catching up) or cannot tell, so any does. */
    @Test
    void aRoleFreeTooLongIsClaimedByAnyDataMember() {
        PrimaryRole gone = PrimaryRole.NONE.after(new GroupEntry.Claim(1, "c1", "run-a"));
        Set<String> withoutC1 = Set.of("c2", "c3");
        List<String> data = List.of("c1", "c2", "c3");
        assertFalse(gone.shouldBeClaimedBy("c2", "run-b", withoutC1, data, "c3", false));
        assertTrue(gone.shouldBeClaimedBy("c2", "run-b", withoutC1, data, "c3", true));
        assertFalse(gone.shouldBeClaimedBy("c2", "run-b", Set.of("c1", "c2", "c3"), data, "c3", true),
                "never while the primary's run is connected");
    }

    /**
     * The primary restarted (the whole group did, say) while another member leads the log: only the
     * restarted member knows the role is free (to the others the primary is connected), so it claims,
     * whoever leads. Before, it left the claim to the leader, which never made it: no primary.
     */
    @Test
    void aPrimaryThatRestartedClaimsAgainItselfWhoeverLeads() {
        PrimaryRole earlierRun = PrimaryRole.NONE.after(new GroupEntry.Claim(1, "c1", "run-a"));
        Set<String> all = Set.of("c1", "c2", "c3");
        List<String> data = List.of("c1", "c2", "c3");
        assertTrue(earlierRun.shouldBeClaimedBy("c1", "run-b", all, data, "c2", false));
        assertFalse(earlierRun.shouldBeClaimedBy("c2", "run-x", all, data, "c2", false));
        assertFalse(earlierRun.shouldBeClaimedBy("c1", "run-a", all, data, "c1", false), "its run holds it");
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
