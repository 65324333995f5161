package org.phalanx.requestmanager.config;

/** Which backends hold which tables, and so which can serve a statement. */
public enum ReplicationLevel {
    /** One backend; the virtual database is a pass-through with logging and scheduling. */
    SINGLE_DB,
    /** Partitioning: each table on exactly one backend. */
    RAIDB_0,
    /** Full replication: every table on every backend. */
    RAIDB_1,
    /** Partial replication: each table on the backends its placement rule chose. */
    RAIDB_2;

    /** Whether routing needs each backend's schema (tables are not everywhere). */
    public boolean isPartial() {
        return this == RAIDB_0 || this == RAIDB_2;
    }
}
