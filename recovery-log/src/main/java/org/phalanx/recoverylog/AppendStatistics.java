package org.phalanx.recoverylog;

/**
 * What group commit achieved since the log was opened.
 *
 * @param entries      entries made durable
 * @param groupCommits durable writes (one fsync or one database commit each) that carried them;
 *                     fewer than {@code entries} whenever appenders shared a write
 */
public record AppendStatistics(long entries, long groupCommits) {
}
