package org.phalanx.controller.jmx;

import java.sql.SQLException;
import java.util.Map;

/** The recovery log of a virtual database. */
public interface RecoveryLogMXBean {
    /** Where it lives (file log folder, or JDBC URL and tables). */
    String getDescription();

    long getLastPosition();

    /** Entries up to this position have been purged. */
    long getPurgedThrough();

    /** Entries held (not yet purged). */
    long getSize();

    /** Entries made durable since the controller started. */
    long getAppendedEntries();

    /** Durable writes that carried them (fewer than entries when appends shared a write). */
    long getGroupCommits();

    /** Checkpoint name to position, in position order. */
    Map<String, Long> getCheckpoints() throws SQLException;

    long checkpoint(String name) throws SQLException;

    long purge() throws SQLException;
}
