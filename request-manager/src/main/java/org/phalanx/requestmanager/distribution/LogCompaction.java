package org.phalanx.requestmanager.distribution;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.concurrent.locks.LockSupport;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.SqlState;

/**
 * A member compacting its copy of the group's log (docs/distribution.md, Compaction), on its role
 * watcher, every {@code compactAfter} entries or when an operator asks. A data member dumps one of
 * its backends ({@link MemberDumps}), replaces its log up to there by a snapshot that carries the
 * dump ({@link GroupSnapshot}), and purges its recovery log ({@link #withDump}); a witness, which
 * holds no data, replaces its log by a snapshot of the role and the take-overs ({@link #witness}).
 */
final class LogCompaction {
    /** One compaction: returns what the operator is answered, or -1 when it cannot compact now (tried again next round). */
    @FunctionalInterface
    interface Compactor {
        long compact() throws Exception;
    }

    private static final Logger LOG = LogManager.getLogger(LogCompaction.class);

    private final String virtualDatabase;
    private final GroupConfig config;
    private final ReplicatedLog log;
    private final long compactAfter;
    private final Thread watcher;
    private final Compactor compactor;
    /** An operator's request, completed by the watcher with what the compactor answers. */
    private volatile CompletableFuture<Long> asked;
    /** When an automatic compaction that failed is tried again. */
    private long retryAt;

    LogCompaction(String virtualDatabase, GroupConfig config, ReplicatedLog log, long compactAfter, Thread watcher,
                  Compactor compactor) {
        this.virtualDatabase = virtualDatabase;
        this.config = config;
        this.log = log;
        this.compactAfter = compactAfter;
        this.watcher = watcher;
        this.compactor = compactor;
    }

    /**
     * A data member's compaction: dumps a backend, with the primary's request manager if it serves,
     * or else from the follower's backends; compacts the log up to there, purges the recovery log.
     * Answers the dump's log position; -1 while its copy is damaged or a follower cannot dump now.
     *
     * <p>A member replicating partially ({@code partial} not null) dumps the union of its backends,
     * and records with the dump which backend held which table there ({@link PlacementRecord}):
     * once its copy is purged up to the dump, a restart learns its placement from that record and
     * the entries after it. If that view is no longer known (too many changes since), the dump is
     * dropped and tried again next round.
     */
    static Compactor withDump(String virtualDatabase, GroupConfig config, ReplicatedLog log, LocalLogCopy copy,
                              MemberDumps dumps, PartialPlacement partial, Supplier<PrimaryDatabase> primary,
                              Supplier<Following<?>> following) {
        return () -> {
            if (copy.damage() != null) {
                return -1;
            }
            PrimaryDatabase rm = primary.get();
            Following<?> f = following.get();
            Path file = dumps.newFile();
            long position = rm != null ? rm.dump(file) : f != null ? f.dump(file) : -1;
            if (position < 0) {
                return -1;
            }
            if (partial != null) {
                PlacementRecord placed = partial.viewAt(position);
                if (placed == null) {
                    Files.deleteIfExists(file);
                    return -1;
                }
                placed.save(copy.local()); // before the purge: the copy still holds every entry after it
            }
            dumps.taken(position, file);
            log.compact();
            long purged = copy.local().purge();
            LOG.info("virtual database {}: {} compacted its log of group {}: a dump at log position {}, the group's"
                    + " log now from index {}, {} recovery-log entries purged", virtualDatabase, config.self(),
                    config.groupName(), position, log.firstIndex(), purged);
            return position;
        };
    }

    /**
     * A witness's compaction: its snapshot holds all its state (who is primary, the take-overs), so
     * the log goes up to the last entry applied. Answers the first index the log still holds.
     */
    static Compactor witness(String virtualDatabase, GroupConfig config, ReplicatedLog log) {
        return () -> {
            log.compact();
            LOG.info("virtual database {}: witness {} compacted its log of group {}, now from index {}",
                    virtualDatabase, config.self(), config.groupName(), log.firstIndex());
            return log.firstIndex();
        };
    }

    /**
     * An operator's request: waits up to {@code wait} for the watcher to compact; returns what the
     * compactor answers. A follower dumps at the first moment its backends hold exactly the log.
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

    /** On the watcher: compacts when asked, or when the log holds {@code compactAfter} entries. */
    void runIfDue() {
        CompletableFuture<Long> request = asked;
        boolean due = compactAfter > 0 && log.commitIndex() - log.firstIndex() >= compactAfter
                && System.nanoTime() - retryAt >= 0;
        if (request == null && !due) {
            return;
        }
        try {
            long position = compactor.compact();
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
}
