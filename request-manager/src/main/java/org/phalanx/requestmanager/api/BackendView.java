package org.phalanx.requestmanager.api;

import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.stats.BackendStatistics;

/** What management sees of a backend: its identity, state and load, read-only. */
public interface BackendView {

    String name();

    BackendConfig config();

    Engine engine();

    /** The database product the backend reported when last enabled, or null if it never was. */
    DatabaseProduct product();

    int weight();

    BackendState state();

    boolean isEnabled();

    /** Why it left service; null while enabled or when it never failed. */
    String disabledReason();

    /** Reads, writes, errors and execution time on this backend. */
    BackendStatistics statistics();

    /** Requests in progress on this backend (queued writes included). */
    int pending();

    /** Writes, commits and rollbacks queued or running on this backend. */
    int queuedWrites();
}
