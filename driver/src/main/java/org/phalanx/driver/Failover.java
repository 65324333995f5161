package org.phalanx.driver;

import java.sql.SQLException;

/**
 * How a connection goes on with another controller of its URL when its own fails (the connection
 * to it breaks): it connects to the next host ({@link ConnectionUrl#hostsToTry}), puts the
 * session's state back there (auto-commit, isolation, read-only, the session commands it ran),
 * and then, depending on what was lost with the request in flight:
 * <ul>
 *   <li>a plain read in auto-commit, or a connection setting: sent again, unseen by the caller (on the
 *       controller after, if that one fails too);</li>
 *   <li>a request inside a transaction: the transaction went with the controller (its backends roll
 *       it back when their connections drop): {@code 40001}, and the connection goes on in a new one;</li>
 *   <li>a write in auto-commit or a commit: the next controller is asked whether it was applied (a
 *       distributed virtual database's primary knows: the request's number is in the group's log with
 *       it, docs/distribution.md). Applied: its result, unseen by the caller (a write's update count
 *       and generated keys, a batch's counts, a commit's success); a batch the controller had applied
 *       only in part: {@code BatchUpdateException} with the counts of the elements applied (the others
 *       never will be). Not applied: a write is sent again, unseen; a commit reports {@code 40001},
 *       its transaction rolled back. No answer (a single controller): {@code 08006}, its outcome
 *       unknown, and the connection goes on;</li>
 *   <li>a session that had temporary tables or advisory locks: they are gone: {@code 08006} once.</li>
 * </ul>
 * A request whose connection was already known broken before it was sent just goes to the next one.
 */
final class Failover {
    private Failover() {
    }

    /** What a request is, for what a failure while it ran leaves undecided. */
    enum Exchange {
        /** Changes nothing: safe to send again. */
        READ,
        /** May have changed data before the controller died. */
        WRITE,
        /** The end of a transaction that may have committed. */
        COMMIT,
        /** The end of a transaction that failing ends anyway. */
        ROLLBACK,
        /** A connection setting, put back on the next controller with the others. */
        SETTING
    }

    /** Makes a request's result from OUTCOME's answer that it was applied ({@code lost}: what failed, for errors). */
    @FunctionalInterface
    interface IfApplied<T> {
        T result(ProtocolConnection.Applied applied, String lost) throws SQLException;
    }

    /** One request on a controller connection. */
    @FunctionalInterface
    interface Call<T> {
        T run(ProtocolConnection protocol) throws SQLException;
    }

    static SQLException transactionLost(String lost) {
        return SqlExceptions.create("the transaction was rolled back: " + lost, "40001", 0, null);
    }

    static SQLException outcomeUnknown(String what, String lost) {
        return SqlExceptions.create("the outcome of the " + what + " is unknown: " + lost
                + "; if it must not run twice, check before running it again", SqlExceptions.CONNECTION_BROKEN, 0, null);
    }

    static SQLException appliedCountUnknown(String lost) {
        return SqlExceptions.create("the statement was applied, but its update count is not known: " + lost,
                SqlExceptions.CONNECTION_BROKEN, 0, null);
    }

    static SQLException appliedKeysUnknown(String lost) {
        return SqlExceptions.create("the statement was applied, but the keys it generated are not known: " + lost,
                SqlExceptions.CONNECTION_BROKEN, 0, null);
    }

    static SQLException sessionStateLost(String lost) {
        return SqlExceptions.create("the session's temporary tables and advisory locks were lost: " + lost,
                SqlExceptions.CONNECTION_BROKEN, 0, null);
    }
}
