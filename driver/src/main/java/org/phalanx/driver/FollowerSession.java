package org.phalanx.driver;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.phalanx.protocol.Protocol;

/**
 * {@code readOnlyRouting=followers}: a read-write connection to a distributed virtual database runs
 * what its application declares read-only ({@code setReadOnly(true)} between transactions, as
 * connection pools and frameworks do for read-only transactions) on a second, read-only session
 * on another member of its URL — a follower, which serves it from its own backends — and goes back
 * to its own session when made read-write again (as MySQL Connector/J's replication connections
 * split reads from writes). The follower's reads are as current as the primary's unless the URL
 * says otherwise ({@code followerReads=current}): each sees every write the group committed before
 * it, this connection's own included. This class holds whichever of the two sessions is not in use
 * (opened at the first switch), and what it was last told of the connection's settings.
 */
final class FollowerSession {
    /** The connection's settings a session was last told: auto-commit, isolation, how many session commands it ran. */
    record Settings(boolean autoCommit, int isolation, int commandsRun) {
    }

    /** A session and the settings it has. */
    record Parked(ProtocolConnection protocol, Settings settings) {
    }

    /** The follower's session: read-only from its start, so any member may serve it. */
    private final ConnectionUrl url;
    private Parked parked;
    private boolean inUse;

    private FollowerSession(ConnectionUrl url) {
        this.url = url;
    }

    /** The follower session of a connection to {@code url}, or null when it asks for none or cannot have one. */
    static FollowerSession of(ConnectionUrl url) throws SQLException {
        if (!url.readOnlyOnFollowers() || url.readOnly() || url.hosts().size() < 2) {
            return null; // a read-only connection is served by any member already; a single host has no follower
        }
        String reads = url.property(ConnectionUrl.FOLLOWER_READS);
        return new FollowerSession(url.with(Map.of(ConnectionUrl.READ_ONLY, "true", ConnectionUrl.FOLLOWER_READS,
                reads == null || reads.isBlank() ? Protocol.FOLLOWER_READS_CURRENT : reads)));
    }

    /** Whether the connection is on the follower's session now. */
    boolean inUse() {
        return inUse;
    }

    /** The URL a session in use goes on with when its controller fails. */
    ConnectionUrl urlInUse(ConnectionUrl connectionUrl) {
        return inUse ? url : connectionUrl;
    }

    /**
     * Parks the session in use, with the settings it has, and gives the other one with the settings
     * it had: the follower's is opened at the first switch, on another member than {@code active}'s
     * first (the primary serves read-only sessions too, when no other member does).
     */
    Parked swap(ProtocolConnection active, Settings activeSettings) throws SQLException {
        Parked next = parked;
        if (next == null) {
            ProtocolConnection follower = ProtocolConnection.open(url, List.of(active.address()));
            next = new Parked(follower, new Settings(true, follower.hello().defaultIsolation(), 0));
        }
        parked = new Parked(active, activeSettings);
        inUse = !inUse;
        return next;
    }

    /** The session not in use, if any. */
    ProtocolConnection parkedProtocol() {
        return parked == null ? null : parked.protocol();
    }
}
