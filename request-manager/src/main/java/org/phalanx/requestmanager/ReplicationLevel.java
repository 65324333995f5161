package org.phalanx.requestmanager;

/** Which backends can serve a statement. RAIDb-0/RAIDb-2 arrive with partial replication. */
public enum ReplicationLevel {
    /** One backend; the virtual database is a pass-through with logging and scheduling. */
    SINGLE_DB,
    /** Full replication: every table on every backend. */
    RAIDB_1
}
