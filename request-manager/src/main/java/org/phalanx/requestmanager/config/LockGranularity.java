package org.phalanx.requestmanager.config;

/**
 * What the scheduler locks for a writing transaction. SQLite lets one transaction write a
 * database file at a time, so two writing transactions must never interleave on it: DATABASE.
 * Engines with row locks allow TABLE, and KEY: a write of one row by its integer primary key
 * conflicts only with writes of that row (where the table qualifies, see {@code RowLocking}).
 * AUTO picks DATABASE when any backend is SQLite (or another controller, or an unknown engine),
 * else KEY.
 */
public enum LockGranularity {
    AUTO, DATABASE, TABLE, KEY
}
