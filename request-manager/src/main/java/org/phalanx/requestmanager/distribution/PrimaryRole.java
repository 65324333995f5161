package org.phalanx.requestmanager.distribution;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Who is primary, as the replicated log says at the entry applied last: the same on every member
 * at the same index, since it changes only by applying {@link GroupEntry.Claim}s in log order.
 *
 * @param epoch   how many times the role was taken (0: never)
 * @param member  the primary's raft id, or null when there is none (never claimed, or resigned)
 * @param run     the primary's process run that claimed it
 * @param resigned the member that resigned last (not to be chosen again at once), or null
 */
record PrimaryRole(long epoch, String member, String run, String resigned) {
    static final PrimaryRole NONE = new PrimaryRole(0, null, null, null);

    /** The role after {@code claim}: taken if it claims the next epoch, else unchanged (a late or lost claim). */
    PrimaryRole after(GroupEntry.Claim claim) {
        if (claim.epoch() != epoch + 1) {
            return this;
        }
        return claim.resigns() ? new PrimaryRole(claim.epoch(), null, null, claim.member())
                : new PrimaryRole(claim.epoch(), claim.member(), claim.run(), resigned);
    }

    /**
     * Whether the role is free as member {@code self} (in its run {@code run}) sees it: none, held by
     * a member not {@code connected}, or by an earlier run of {@code self} — which only {@code self}
     * can tell: to the others, the primary is connected.
     */
    boolean isFreeFor(String self, String run, Set<String> connected) {
        return member == null || !connected.contains(member) || self.equals(member) && !run.equals(this.run);
    }

    /**
     * Whether member {@code self} (in its run {@code run}) should claim the role now: it is free
     * ({@link #isFreeFor}) and {@code self} is the member to take it. A primary that restarted takes
     * it again, since only it knows. Otherwise the connected data member the others choose alike: the
     * log's {@code leader} if it is one (its appends commit without a hop, and it learns of each
     * commit at once, where a follower hears of it only with the leader's next message), else the
     * first in configuration order; the one that resigned last only if no other is there. Once the
     * role has stayed free too long here ({@code overdue}: the chosen member cannot claim — still
     * catching up, say — or cannot tell), any data member claims: the first claim of the epoch wins,
     * the others change nothing.
     */
    boolean shouldBeClaimedBy(String self, String run, Set<String> connected, List<String> dataMembers, String leader,
                              boolean overdue) {
        if (!isFreeFor(self, run, connected)) {
            return false;
        }
        if (overdue || self.equals(member)) {
            return true;
        }
        List<String> candidates = new ArrayList<>(dataMembers);
        candidates.retainAll(connected);
        if (candidates.size() > 1) {
            candidates.remove(resigned); // it gave up: let another try first
        }
        if (candidates.isEmpty()) {
            return false;
        }
        return self.equals(candidates.contains(leader) ? leader : candidates.get(0));
    }

    /** Whether {@code member}'s current run {@code run} holds the role. */
    boolean heldBy(String member, String run) {
        return member.equals(this.member) && run.equals(this.run);
    }
}
