package org.phalanx.recoverylog;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The group-commit queue shared by the log stores: appenders add entries to the open group and
 * get that group's future; one writer thread takes the whole group, hands it to the store (one
 * fsync or one commit), and completes the future for all of them at once. No artificial delay:
 * groups form naturally while the previous group is being synced.
 *
 * <p>A group the store could not make durable is refused (its appenders get the failure) and
 * the next group is tried again: a full disk refuses writes while it is full, not forever. What
 * the refusals leave owed to the log ({@link Refusals}) is written ahead of the next group, or
 * retried on its own while no group comes.
 */
final class GroupCommit implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(GroupCommit.class);
    /** While the log owes entries (or its store a repair) and nothing is appended, retry this often. */
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Makes a batch durable; called on the writer thread only, never concurrently. A batch that
     * fails must leave nothing of itself in the log once a later call succeeds (a store repairs
     * what a failed write left before writing anything else). The batch may be empty: the call then
     * only repairs.
     */
    interface Store {
        void writeDurably(List<LogEntry> batch) throws Exception;
    }

    private static final class Group {
        final List<LogEntry> entries = new ArrayList<>();
        final CompletableFuture<Void> done = new CompletableFuture<>();
    }

    private final String name;
    private final Store store;
    private final int maxGroupSize;
    private final Thread writer;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition hasWork = lock.newCondition();
    private final Condition hasRoom = lock.newCondition();
    private final Refusals refusals = new Refusals(); // under lock
    private Group open = new Group();
    private List<CompletableFuture<Void>> settleWaiters = new ArrayList<>();
    private long lastAccepted;
    private volatile long lastDurable;
    /** Since the last refusal nothing was written: entries may be owed, the store may need a repair. */
    private volatile boolean unsettled;
    private long refusedSinceSettled; // writer thread only
    private boolean closed;
    private long entries;
    private long groups;

    GroupCommit(String name, Store store, long lastPosition, int maxGroupSize) {
        this.name = name;
        this.store = store;
        this.maxGroupSize = maxGroupSize;
        this.lastAccepted = lastPosition;
        this.lastDurable = lastPosition;
        this.writer = new Thread(this::run, name);
        writer.setDaemon(true);
        writer.start();
    }

    CompletableFuture<Void> submit(LogEntry entry) {
        lock.lock();
        try {
            while (open.entries.size() >= maxGroupSize && !closed) {
                hasRoom.awaitUninterruptibly(); // bounded memory when appenders outrun the disk
            }
            if (closed) {
                throw new IllegalStateException("recovery log is closed");
            }
            if (entry.position() <= lastAccepted) {
                throw new IllegalArgumentException("log position " + entry.position()
                        + " is not above the last accepted position " + lastAccepted);
            }
            lastAccepted = entry.position();
            Refusals.Admission admission = refusals.admit(entry);
            if (admission.stored() == null) {
                return CompletableFuture.completedFuture(null); // nothing to record
            }
            open.entries.add(admission.stored());
            hasWork.signal();
            if (admission.refusal() == null) {
                return open.done;
            }
            // the caller learns of the refusal once what the log records instead is settled
            CompletableFuture<Void> refused = new CompletableFuture<>();
            open.done.whenComplete((v, e) -> refused.completeExceptionally(admission.refusal()));
            return refused;
        } finally {
            lock.unlock();
        }
    }

    long lastDurable() {
        return lastDurable;
    }

    AppendStatistics statistics() {
        lock.lock();
        try {
            return new AppendStatistics(entries, groups);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until everything submitted so far is durable or refused; if a refusal left the log
     * owing entries (or the store a repair), tries once more. Returns whether nothing is owed.
     */
    boolean settle() {
        CompletableFuture<Void> settled = new CompletableFuture<>();
        lock.lock();
        try {
            if (closed) {
                return !unsettled;
            }
            settleWaiters.add(settled);
            hasWork.signal();
        } finally {
            lock.unlock();
        }
        settled.join();
        return !unsettled;
    }

    private void run() {
        while (true) {
            Group group;
            List<CompletableFuture<Void>> waiters;
            boolean last;
            lock.lock();
            try {
                long retryIn = RETRY_NANOS;
                while (open.entries.isEmpty() && settleWaiters.isEmpty() && !closed) {
                    if (!unsettled) {
                        hasWork.awaitUninterruptibly();
                    } else if (retryIn > 0) {
                        retryIn = awaitWork(retryIn);
                    } else {
                        break; // time to retry what is owed
                    }
                }
                group = open;
                open = new Group();
                hasRoom.signalAll();
                waiters = settleWaiters;
                settleWaiters = new ArrayList<>();
                last = closed && group.entries.isEmpty();
            } finally {
                lock.unlock();
            }
            if (!group.entries.isEmpty() || unsettled) {
                write(group);
            }
            waiters.forEach(w -> w.complete(null));
            if (last) {
                return; // closed and drained (what is owed was tried once more)
            }
        }
    }

    private long awaitWork(long nanos) {
        try {
            return hasWork.awaitNanos(nanos);
        } catch (InterruptedException e) {
            return 0; // nobody interrupts the writer; retry now
        }
    }

    /** Writes what is owed and the group; a failure refuses the group, and the next write tries again. */
    private void write(Group group) {
        List<LogEntry> batch;
        lock.lock();
        try {
            batch = refusals.batch(group.entries);
        } finally {
            lock.unlock();
        }
        try {
            store.writeDurably(batch);
        } catch (Throwable t) {
            refuse(group, t);
            return;
        }
        lock.lock();
        try {
            refusals.durable(batch);
            entries += batch.size();
            if (!batch.isEmpty()) {
                groups++;
                lastDurable = batch.get(batch.size() - 1).position();
            }
        } finally {
            lock.unlock();
        }
        if (unsettled) {
            unsettled = false;
            LOG.info("{}: writes durably again, after refusing {} entries", name, refusedSinceSettled);
            refusedSinceSettled = 0;
        }
        group.done.complete(null);
    }

    private void refuse(Group group, Throwable t) {
        String positions = group.entries.isEmpty() ? "what it owes"
                : "log positions " + group.entries.get(0).position() + ".."
                + group.entries.get(group.entries.size() - 1).position();
        RecoveryLogException e;
        if (StorageFull.causedBy(t)) {
            e = new LogFullException(name + ": no space left to make " + positions + " durable (they are not in"
                    + " the log; writes resume when space returns): " + t.getMessage(), t);
        } else {
            e = new RecoveryLogException(name + ": could not make " + positions + " durable (they are not in the"
                    + " log): " + t, t);
        }
        lock.lock();
        try {
            refusals.refused(group.entries, e);
        } finally {
            lock.unlock();
        }
        if (!unsettled) {
            LOG.warn("{} (entries are refused until the storage takes writes again)", e.getMessage());
        }
        unsettled = true;
        refusedSinceSettled += group.entries.size();
        group.done.completeExceptionally(e);
    }

    /** Stops accepting entries, waits until everything queued is durable or refused, stops the writer. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            hasWork.signal();
            hasRoom.signalAll();
        } finally {
            lock.unlock();
        }
        boolean interrupted = false;
        while (writer.isAlive()) {
            try {
                writer.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (unsettled) {
            LOG.error("{}: closed while its storage refused writes; entries owed to it are missing (the next start"
                    + " checks every backend against the log)", name);
        }
    }
}
