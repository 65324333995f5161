package org.phalanx.requestmanager.config;

/**
 * What the scheduler locks for a writing transaction. SQLite lets one transaction write a
 * database file at a time, so two writing transactions must never interleave on it: DATABASE.
 * Engines with row locks allow TABLE. AUTO picks DATABASE when any backend is SQLite.
 */
public enum LockGranularity {
    AUTO, DATABASE, TABLE
}
