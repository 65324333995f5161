package org.phalanx.requestmanager.distribution;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.Session;

/** What a group's primary serves sessions with (the request manager), as its {@link GroupMember} sees it. */
public interface PrimaryDatabase {
    Session openSession(String virtualUser) throws SQLException;

    /** Stops accepting requests, waits up to {@code wait} for those in flight, closes the backends. */
    void shutdown(Duration wait);

    /** The last log position written. */
    long lastPosition();

    /**
     * Dumps the virtual database from one of its backends into {@code dumpFile} (portable format)
     * while it keeps serving; returns the recovery-log position the dump reflects.
     */
    long dump(Path dumpFile) throws SQLException;

    /**
     * Takes into service a backend of another member that this one now holds, bringing it to the
     * log's end by its own record of applied positions.
     */
    void adoptBackend(String backendName) throws SQLException;

    /**
     * Learns again which backend holds which table (a follower's readers under partial replication,
     * after the log's replay created, dropped or renamed tables on its backends).
     */
    void relearnSchema() throws SQLException;

    /**
     * Stops using a backend it holds for another member, {@code owner}, before giving it back: once
     * this returns, every write queued on it has run and no other will be.
     */
    void releaseBackend(String backendName, String owner) throws SQLException;

    /** Backend name to state, in configuration order. */
    Map<String, BackendState> backendStates();
}
