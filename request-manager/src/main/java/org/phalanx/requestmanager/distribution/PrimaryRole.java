package org.phalanx.requestmanager.distribution;

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

    /** Whether {@code member}'s current run {@code run} holds the role. */
    boolean heldBy(String member, String run) {
        return member.equals(this.member) && run.equals(this.run);
    }
}
