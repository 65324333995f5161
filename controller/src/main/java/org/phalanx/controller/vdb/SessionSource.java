package org.phalanx.controller.vdb;

import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.RequestManager;
import org.phalanx.requestmanager.stats.Statistics;
import org.phalanx.requestmanager.stats.CacheStatistics;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.distribution.GroupMember;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

/**
 * What a virtual database needs of its request manager: sessions for authenticated users and
 * an orderly shutdown. The seam lets the front end be tested without a request manager.
 */
public interface SessionSource {

    Session openSession(String virtualUser) throws SQLException;

    /**
     * A session; a read-only one refuses writes (25006), and a group's follower may serve it from its
     * own backends, with {@code currentReads} each read as current as the group when it starts.
     */
    default Session openSession(String virtualUser, boolean readOnly, boolean currentReads) throws SQLException {
        Session s = openSession(virtualUser);
        if (readOnly) {
            try {
                s.setReadOnly(true);
            } catch (SQLException e) {
                s.close();
                throw e;
            }
        }
        return s;
    }

    /** Stops accepting requests, waits up to {@code wait} for those in flight, closes the backends. */
    void shutdown(Duration wait);

    /** Backend name to state, in configuration order (empty when there is no request manager). */
    default Map<String, BackendState> backendStates() {
        return Map.of();
    }

    /** Result cache counters (null without a cache). */
    default CacheStatistics cacheStatistics() {
        return null;
    }

    /** Request counters, unparsed statements included (null when there is no request manager). */
    default Statistics.Snapshot statistics() {
        return null;
    }

    /**
     * The request manager behind the sessions, for operator actions (recovery, dumps); null when
     * there is none (sessions served some other way, as in tests).
     */
    default RequestManager requestManager() {
        return null;
    }

    /** Whether sessions are served here now (a distributed virtual database serves them on its primary only). */
    default boolean serves() {
        return true;
    }

    /** The group this controller hosts the virtual database with, if it is distributed. */
    default GroupMember<RequestManager> group() {
        return null;
    }

    /** Sessions of a distributed virtual database: the primary's request manager, while this controller is it. */
    static SessionSource of(GroupMember<RequestManager> member) {
        return new SessionSource() {
            @Override
            public RequestManager requestManager() {
                return member.primary();
            }

            @Override
            public Session openSession(String virtualUser) throws SQLException {
                return member.openSession(virtualUser, false, false);
            }

            @Override
            public Session openSession(String virtualUser, boolean readOnly, boolean currentReads)
                    throws SQLException {
                return member.openSession(virtualUser, readOnly, currentReads);
            }

            @Override
            public boolean serves() {
                return member.serves();
            }

            @Override
            public GroupMember<RequestManager> group() {
                return member;
            }

            @Override
            public void shutdown(Duration wait) {
                member.close(wait);
            }

            @Override
            public Map<String, BackendState> backendStates() {
                return member.backendStates();
            }

            @Override
            public Statistics.Snapshot statistics() {
                RequestManager rm = member.primary();
                return rm == null ? null : rm.statistics();
            }

            @Override
            public CacheStatistics cacheStatistics() {
                RequestManager rm = member.primary();
                return rm == null ? null : rm.cacheStatistics();
            }
        };
    }

    static SessionSource of(RequestManager requestManager) {
        return new SessionSource() {
            @Override
            public RequestManager requestManager() {
                return requestManager;
            }

            @Override
            public Session openSession(String virtualUser) throws SQLException {
                return requestManager.openSession(virtualUser);
            }

            @Override
            public void shutdown(Duration wait) {
                requestManager.shutdown(wait);
            }

            @Override
            public Map<String, BackendState> backendStates() {
                return requestManager.backendStates();
            }

            @Override
            public Statistics.Snapshot statistics() {
                return requestManager.statistics();
            }

            @Override
            public CacheStatistics cacheStatistics() {
                return requestManager.cacheStatistics();
            }
        };
    }
}
