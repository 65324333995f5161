package org.phalanx.recoverylog;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The durable record of every write, commit and rollback in the total order, plus named
 * checkpoints into it and the persistent states of backends.
 *
 * <p>Appends use group commit: concurrent appenders queue their entries, one writer thread
 * makes the whole queue durable with one fsync (file) or one commit (database) and then releases
 * every appender of that group. Positions are chosen by the caller and must strictly increase in
 * the order entries are handed over; an entry at or below the last accepted position is refused
 * with {@link IllegalArgumentException}. Callers that assign positions under a lock should hand
 * the entry over under that same lock with {@link #appendAsync} and wait for durability outside
 * it, so the hand-over order is the position order without serialising the waits.
 *
 * <p>An entry the store cannot make durable (a full disk, a lost log database) is <em>refused</em>:
 * its future fails, with a {@link LogFullException} when the storage had no room, and the entry
 * is not in the log, ever (a store removes what a failed write left). The caller must then undo
 * what the entry stood for: roll back a refused STATEMENT or COMMIT, and the transaction of a
 * refused WRITE (whose COMMIT the log refuses in turn, recording a ROLLBACK). The log records a
 * ROLLBACK at the position of a refused COMMIT or ROLLBACK, and a refused FAILED entry, once its
 * storage takes writes again, ahead of every later entry (see {@code Refusals}). Appends after a
 * refusal are tried against the storage again: the log recovers when its disk does, without being
 * reopened. A caller hands a transaction's COMMIT over only after its WRITE entries are durable.
 *
 * <p>Checkpoints are named positions: "everything up to and including this position is
 * reflected". {@link #read(long)} from a checkpoint gives what must be replayed. They are meant
 * to be taken at points where no transaction is open (the request manager quiesces first): a
 * purge keeps nothing before the oldest checkpoint.
 *
 * <p>All methods are thread-safe. Failures are {@link RecoveryLogException}s.
 */
public interface RecoveryLog extends AutoCloseable {

    /**
     * Appends an entry and returns once it is durable.
     *
     * @throws IllegalArgumentException if its position is not above the last accepted one
     * @throws RecoveryLogException     if it was refused (it is not in the log; the caller must
     *                                  treat the write as failed); a {@link LogFullException}
     *                                  when the storage had no room
     */
    default void append(LogEntry entry) {
        CompletableFuture<Void> done = appendAsync(entry);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    done.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // durability is the contract: keep waiting, restore the flag after
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException r) {
                        throw r;
                    }
                    throw new RecoveryLogException("append of position " + entry.position() + " failed", cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Hands an entry to the writer and returns at once; the future completes when the entry is
     * durable (or fails with a {@link RecoveryLogException} when it was refused). The position
     * check happens here, synchronously.
     *
     * @throws IllegalArgumentException if its position is not above the last accepted one
     * @throws IllegalStateException    if the log is closed
     */
    CompletableFuture<Void> appendAsync(LogEntry entry);

    /**
     * Waits until every entry handed over so far is durable or refused; if refusals left the log
     * owing entries (or a failed write to clean up), tries to write them once more. Returns
     * whether the log owes nothing: it then holds exactly the entries that were not refused, and
     * what the refusals require (see the class comment).
     */
    boolean settle();

    /** The highest durable position (0 for a log that never held an entry). Never goes back, also after a purge. */
    long lastPosition();

    /** The highest position removed by {@link #purge()} (0 if nothing was purged). */
    long purgedThrough();

    /**
     * The entries after {@code afterPosition}, in position order, streamed (the log is never
     * loaded whole). The iterator sees the entries that were durable when this method was called.
     *
     * @throws RecoveryLogException if entries after {@code afterPosition} were already purged
     */
    CloseableIterator<LogEntry> read(long afterPosition);

    /**
     * Records (or moves) a named checkpoint. Any position from {@link #purgedThrough()} up is
     * accepted, also one above {@link #lastPosition()} (an entry still on its way to the log).
     */
    void setCheckpoint(String name, long position);

    Optional<Long> checkpoint(String name);

    /** All checkpoints by name. */
    Map<String, Long> checkpoints();

    void removeCheckpoint(String name);

    /**
     * Deletes entries at or before the oldest checkpoint — entries no checkpoint needs — and
     * returns how many were deleted. Without any checkpoint nothing is deleted. A store may keep
     * some of those entries (the file log deletes whole segments only).
     */
    long purge();

    /** Stores a value under a key (a backend's state); a null value removes the key. Durable on return. */
    void putState(String key, String value);

    /** All stored states by key. */
    Map<String, String> states();

    /**
     * The update count the auto-commit statement at {@code position} had where it was applied (by
     * the request manager or by replay), and the keys it generated when its request asked for them
     * (else null). Only the log of a group's member keeps them, to answer a driver asking after a
     * failover whether its request was applied (docs/distribution.md).
     */
    default void counted(long position, long count, GeneratedKeys keys) {
    }

    /** How many entries were appended and in how many durable writes, since the log was opened. */
    AppendStatistics appendStatistics();

    /** Waits for queued entries to become durable, then releases files and connections. */
    @Override
    void close();
}
