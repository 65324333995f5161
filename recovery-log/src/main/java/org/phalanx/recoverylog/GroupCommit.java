package org.phalanx.recoverylog;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The group-commit queue shared by the log stores: appenders add entries to the open group and
 * get that group's future; one writer thread takes the whole group, hands it to the store (one
 * fsync or one commit), and completes the future for all of them at once. No artificial delay:
 * groups form naturally while the previous group is being synced.
 */
final class GroupCommit implements AutoCloseable {

    /** Makes a batch durable; called on the writer thread only, never concurrently. */
    interface Store {
        void writeDurably(List<LogEntry> batch) throws Exception;
    }

    private static final class Group {
        final List<LogEntry> entries = new ArrayList<>();
        final CompletableFuture<Void> done = new CompletableFuture<>();
    }

    private final Store store;
    private final int maxGroupSize;
    private final boolean failureIsFinal;
    private final Thread writer;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition hasWork = lock.newCondition();
    private final Condition hasRoom = lock.newCondition();
    private Group open = new Group();
    private long lastAccepted;
    private volatile long lastDurable;
    private boolean closed;
    private RecoveryLogException failure;
    private long entries;
    private long groups;

    /**
     * @param failureIsFinal whether a failed write leaves the store unusable (a file whose tail is
     *                       in doubt) or only fails that group (a rolled-back transaction)
     */
    GroupCommit(String name, Store store, long lastPosition, int maxGroupSize, boolean failureIsFinal) {
        this.store = store;
        this.failureIsFinal = failureIsFinal;
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
            while (open.entries.size() >= maxGroupSize && !closed && failure == null) {
                hasRoom.awaitUninterruptibly(); // bounded memory when appenders outrun the disk
            }
            if (failure != null) {
                throw new IllegalStateException("recovery log failed earlier and accepts no more entries until it"
                        + " is reopened: " + failure.getMessage(), failure);
            }
            if (closed) {
                throw new IllegalStateException("recovery log is closed");
            }
            if (entry.position() <= lastAccepted) {
                throw new IllegalArgumentException("log position " + entry.position()
                        + " is not above the last accepted position " + lastAccepted);
            }
            lastAccepted = entry.position();
            open.entries.add(entry);
            hasWork.signal();
            return open.done;
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

    private void run() {
        while (true) {
            Group group;
            lock.lock();
            try {
                while (open.entries.isEmpty() && !closed) {
                    hasWork.awaitUninterruptibly();
                }
                if (open.entries.isEmpty()) {
                    return; // closed and drained
                }
                group = open;
                open = new Group();
                hasRoom.signalAll();
            } finally {
                lock.unlock();
            }
            try {
                store.writeDurably(group.entries);
                lock.lock();
                try {
                    entries += group.entries.size();
                    groups++;
                } finally {
                    lock.unlock();
                }
                lastDurable = group.entries.get(group.entries.size() - 1).position();
                group.done.complete(null);
            } catch (Throwable t) {
                RecoveryLogException e = t instanceof RecoveryLogException r ? r
                        : new RecoveryLogException("could not make log positions " + group.entries.get(0).position()
                        + ".." + group.entries.get(group.entries.size() - 1).position() + " durable: " + t, t);
                group.done.completeExceptionally(e);
                if (failureIsFinal) {
                    failAll(e);
                    return;
                }
            }
        }
    }

    // After a failed write the store's tail is in doubt: refuse everything until it is reopened.
    private void failAll(RecoveryLogException e) {
        lock.lock();
        try {
            failure = e;
            open.done.completeExceptionally(e);
            open = new Group();
            hasRoom.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Stops accepting entries, waits until everything queued is durable, stops the writer. */
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
    }
}
