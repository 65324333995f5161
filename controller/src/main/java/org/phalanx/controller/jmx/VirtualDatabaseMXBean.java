package org.phalanx.controller.jmx;

import java.sql.SQLException;
import java.util.Map;

/**
 * A hosted virtual database: its counters and every operator action. Emits the notifications
 * named in {@link Notifications}: backend state changes and failures, progress of long
 * operations and their end.
 */
public interface VirtualDatabaseMXBean {
    String getName();

    /** Backend names in configuration order. */
    String[] getBackends();

    /** Backend name to state (ENABLED, DISABLED, REPLAYING, RESTORING). */
    Map<String, String> getBackendStates();

    long getReads();

    long getWrites();

    long getCommits();

    long getRollbacks();

    /** Transactions ended: commits plus rollbacks. */
    long getTransactions();

    long getErrors();

    /** Reads retried on another backend after one failed. */
    /** Writes that locked one row rather than their table (lockGranularity key). */
    long getRowLevelWrites();

    long getReadRetries();

    /** Statements the SQL parser could not read (treated as writes on every table). */
    long getUnparsedStatements();

    /** Requests in progress over all backends (queued writes included). */
    int getPendingRequests();

    int getOpenSessions();

    int getOpenTransactions();

    /**
     * How long the controller takes to answer requests, from a request read to its reply
     * written (the network to the client left out), since start: count, p50, p95, p99, max (µs).
     */
    Map<String, Double> getAnswerTimeMicros();

    /** The operator action running now, or an empty string. */
    String getRunningOperation();

    /** SQL statistics: the {@code n} statement templates run most often (literals stripped). */
    StatementStatistics[] topStatements(int n);

    void disableBackend(String backend) throws SQLException;

    /** Replays the recovery log onto a disabled backend from its checkpoint, then enables it. */
    void enableBackend(String backend) throws SQLException;

    /** Records a named checkpoint at the current position; returns it. */
    long checkpoint(String name) throws SQLException;

    /** Deletes log entries older than the oldest checkpoint; returns how many. */
    long purgeLog() throws SQLException;

    /**
     * Dumps a backend into the dump folder.
     *
     * @param format empty for the portable format, or sqlite-native, pg_dump, mysqldump
     */
    DumpDescription backup(String backend, String dumpName, String format) throws SQLException;

    /** Restores a dump onto a disabled backend (enable it afterwards to replay the log). */
    DumpDescription restore(String backend, String dumpName, boolean force) throws SQLException;

    DumpDescription[] listDumps() throws SQLException;

    void deleteDump(String dumpName) throws SQLException;

    /** Checkpoint name to position, in position order. */
    Map<String, Long> getCheckpoints() throws SQLException;

    void flushCache();

    /**
     * Verifies that the replicas hold identical data (docs/verification.md), reporting only, with
     * no rate limit; progress and differences come as notifications.
     *
     * @param tables table names separated by spaces or commas; empty for every table
     */
    VerificationDescription verify(String tables) throws SQLException;

    /**
     * The same, at most {@code rowsPerSecond} rows compared per second (0: no limit), and
     * {@code onDifference} (report, disable or rebuild) done about a replica the majority outvoted.
     */
    VerificationDescription verifyWith(String tables, long rowsPerSecond, String onDifference) throws SQLException;

    /** The last finished verification's report (on demand or scheduled), or null before the first. */
    VerificationDescription getLastVerification();

    /** The running verification's progress, or null when none runs. */
    VerificationProgressDescription getVerificationProgress();

    /** Stops hosting this virtual database; {@code mode} is wait, safe or force. */
    void shutdown(String mode) throws SQLException;

    /** The group of a distributed virtual database as this controller sees it; null for one that is not distributed. */
    GroupDescription getGroup();

    /** On the primary of a distributed virtual database: stop serving and let another data member take over. */
    void stepDown() throws SQLException;

    /** Adds a controller to the group's log configuration (started with a configuration naming every member). */
    void addGroupMember(String member) throws SQLException;

    /** Removes a controller from the group's log configuration. */
    void removeGroupMember(String member) throws SQLException;

    /**
     * On a member of a distributed virtual database: compacts its copy of the group's log. A data
     * member dumps one of its backends, compacts up to the dump and returns the dump's recovery-log
     * position; a witness compacts up to the last entry it applied and returns the first index its
     * log still holds.
     */
    long compactGroupLog() throws SQLException;

    /**
     * On the primary of a distributed virtual database: takes over the backends of {@code member}
     * (gone for good) that this controller declares with {@code owner}; returns those taken into service.
     */
    String[] takeOverBackends(String member) throws SQLException;

    /**
     * On the primary of a distributed virtual database: gives the backends it took over from
     * {@code member} back to it (which must be connected and follow the group's log); returns those
     * given back.
     */
    String[] giveBackBackends(String member) throws SQLException;
}
