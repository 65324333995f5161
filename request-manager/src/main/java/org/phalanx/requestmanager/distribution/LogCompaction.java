package org.phalanx.requestmanager.distribution;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.SqlState;

/**
 * A data member compacting its copy of the group's log (docs/distribution.md, Compaction): it
 * dumps one of its backends ({@link MemberDumps}), replaces its log up to there by a snapshot that
 * carries the dump ({@link GroupSnapshot}), and purges its recovery log. Runs on the member's role
 * watcher, every {@code compactAfter} entries or when an operator asks.
 */
final class LogCompaction {
    private static final Logger LOG = LogManager.getLogger(LogCompaction.class);

    private final String virtualDatabase;
    private final GroupConfig config;
    private final ReplicatedLog log;
    private final LocalLogCopy copy;
    private final MemberDumps dumps;
    private final long compactAfter;
    private final Thread watcher;
    /** An operator's request, completed with the dump's position by the watcher. */
    private volatile CompletableFuture<Long> asked;
    /** When an automatic compaction that failed is tried again. */
    private long retryAt;

    LogCompaction(String virtualDatabase, GroupConfig config, ReplicatedLog log, LocalLogCopy copy, MemberDumps dumps,
                  long compactAfter, Thread watcher) {
        this.virtualDatabase = virtualDatabase;
        this.config = config;
        this.log = log;
        this.copy = copy;
        this.dumps = dumps;
        this.compactAfter = compactAfter;
        this.watcher = watcher;
    }

    /**
     * An operator's request: waits up to {@code wait} for the watcher to compact; returns the dump's
     * log position. A follower dumps at the first moment its backends hold exactly the log.
     */
    long request(Duration wait) throws SQLException {
        CompletableFuture<Long> request = new CompletableFuture<>();
        asked = request;
        LockSupport.unpark(watcher);
        String failed = "controller " + config.self() + " could not compact the log of group " + config.groupName();
        try {
            return request.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", SqlState.OPERATION_CANCELED.code(), e);
        } catch (TimeoutException e) {
            throw new SQLException(failed + " within " + wait.toSeconds() + " s (a follower dumps only when no"
                    + " transaction is open on its backends)", SqlState.QUERY_CANCELED.code());
        } catch (ExecutionException e) {
            throw new SQLException(failed + ": " + e.getCause().getMessage(), SqlState.IO_ERROR.code(), e.getCause());
        } finally {
            asked = null;
        }
    }

    /**
     * On the watcher: compacts when asked, or when the log holds {@code compactAfter} entries, with
     * a dump from the primary's request manager {@code rm}, or else from the follower's backends.
     */
    void runIfDue(PrimaryDatabase rm, Following<?> following) {
        CompletableFuture<Long> request = asked;
        boolean due = compactAfter > 0 && log.commitIndex() - log.firstIndex() >= compactAfter
                && System.nanoTime() - retryAt >= 0;
        if (request == null && !due || copy.damage() != null) {
            return;
        }
        try {
            long position = compact(rm, following);
            if (position >= 0 && request != null) {
                request.complete(position);
            }
        } catch (Exception e) {
            LOG.warn("virtual database {}: {} could not compact the log of group {}: {}", virtualDatabase,
                    config.self(), config.groupName(), e.toString());
            if (request != null) {
                request.completeExceptionally(e);
            } else {
                retryAt = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            }
        }
    }

    /** Dumps a backend, compacts the log up to it, purges the recovery log; -1 when a follower cannot dump now. */
    private long compact(PrimaryDatabase rm, Following<?> following) throws Exception {
        Path file = dumps.newFile();
        long position = rm != null ? rm.dump(file) : following != null ? following.dump(file) : -1;
        if (position < 0) {
            return -1;
        }
        dumps.taken(position, file);
        log.compact();
        long purged = copy.local().purge();
        LOG.info("virtual database {}: {} compacted its log of group {}: a dump at log position {}, the group's log"
                + " now from index {}, {} recovery-log entries purged", virtualDatabase, config.self(),
                config.groupName(), position, log.firstIndex(), purged);
        return position;
    }
}
