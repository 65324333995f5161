package org.phalanx.controller.vdb;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.VirtualDatabaseConfig;
import org.phalanx.requestmanager.RequestManager;
import org.phalanx.requestmanager.Session;

import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.time.Duration;

/** A virtual database hosted by this controller: who may log in, and where their sessions come from. */
public final class VirtualDatabase {
    private static final Logger LOG = LogManager.getLogger(VirtualDatabase.class);

    /** The only thing a client learns from a failed login: not which part was wrong. */
    public static final String INVALID_CREDENTIALS = "invalid credentials";

    private final String name;
    private final VirtualUsers users;
    private final SessionSource sessions;

    public VirtualDatabase(String name, VirtualUsers users, SessionSource sessions) {
        this.name = name;
        this.users = users;
        this.sessions = sessions;
    }

    /** Creates and starts the request manager of a configured virtual database. */
    public static VirtualDatabase start(VirtualDatabaseConfig config) throws SQLException {
        RequestManager requestManager = new RequestManager(config.name(), config.requestManager(), config.backends());
        try {
            requestManager.start();
        } catch (SQLException | RuntimeException e) {
            requestManager.shutdown(Duration.ZERO);
            throw e;
        }
        LOG.info("Virtual database {} started ({} backends, {})", config.name(), config.backends().size(),
                config.requestManager().replication());
        return new VirtualDatabase(config.name(), new VirtualUsers(config.users()), SessionSource.of(requestManager));
    }

    public String name() {
        return name;
    }

    /**
     * Checks the credentials and opens a session for the user.
     *
     * @throws SQLInvalidAuthorizationSpecException (28000) when they do not match
     */
    public Session login(String user, String password) throws SQLException {
        if (!users.authenticate(user, password)) {
            throw new SQLInvalidAuthorizationSpecException(INVALID_CREDENTIALS, "28000");
        }
        return sessions.openSession(user);
    }

    /** Whether a failed login named an existing user (for the server log only). */
    public boolean hasUser(String user) {
        return users.exists(user);
    }

    /** Backend name to state, in configuration order. */
    public java.util.Map<String, org.phalanx.requestmanager.BackendState> backendStates() {
        return sessions.backendStates();
    }

    /** Request counters of this virtual database, unparsed statements included. */
    public org.phalanx.requestmanager.Statistics.Snapshot statistics() {
        return sessions.statistics();
    }

    /** Result cache counters, or null without a cache. */
    public org.phalanx.requestmanager.cache.CacheStatistics cacheStatistics() {
        return sessions.cacheStatistics();
    }

    public void shutdown(Duration wait) {
        sessions.shutdown(wait);
        LOG.info("Virtual database {} shut down", name);
    }
}
