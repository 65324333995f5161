package org.phalanx.requestmanager.scheduler;

import java.sql.SQLTransactionRollbackException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Locks that writing transactions hold until their commit or rollback is queued on every
 * backend, so two transactions never interleave conflicting writes. A resource is a table name,
 * one row of a table ({@link RowKeys}: it conflicts with that row and with its table), or
 * {@link #ALL}, which conflicts with every other resource.
 *
 * <p>A table a transaction only reads (the source of an {@code INSERT ... SELECT}) is held
 * shared: other readers may hold it too, a writer may not. A table it writes is held
 * exclusively. So two transactions that both read {@code items} run side by side, while a
 * transaction writing {@code items} waits until neither holds it (and they wait for it): every
 * backend then runs each reader after the same writes of {@code items}. A reader that later
 * writes the table upgrades its lock once no other transaction holds it. {@link #ALL} held
 * shared (a REPEATABLE READ or SERIALIZABLE transaction's reads where the whole database is locked)
 * lets no one write anything; held exclusively, it lets no one hold anything.
 *
 * <p>Older transactions (lower ids) come first: a transaction asking to read a resource it does
 * not hold yet waits while an older one waits to write it, so readers that keep overlapping
 * (REPEATABLE READ transactions that read, then write the table they read) cannot starve a writer;
 * and a transaction holding nothing yet waits behind every older one waiting for access that
 * conflicts with its own, so transactions refused with 40001 and run again (each time newer)
 * cannot starve an older one either. These waits are edges of the wait-for graph too.
 *
 * <p>The scheduler never deadlocks: a transaction whose wait would close a cycle in the
 * wait-for graph (edges from a waiting transaction to every holder blocking it, shared holders
 * included, so two readers upgrading the same table are a cycle), or that waits longer than the
 * timeout, is refused with SQLState 40001 and its caller rolls it back everywhere.
 *
 * <p>A waiting transaction is woken only when one of the transactions that blocked it when it
 * last looked releases its locks or stops waiting: nothing else can unblock it (a transaction that
 * starts holding something it conflicts with only adds to its wait). Waking every waiter at each
 * release instead made dozens of threads run, one after the other, to find themselves still
 * blocked: under contention that cost more controller CPU than the requests themselves.
 */
public final class LockManager {
    public static final String ALL = "*";

    /** Who holds one resource: one exclusive owner, or any number of shared holders. */
    private static final class Holders {
        Long exclusive;
        final Set<Long> shared = new HashSet<>();

        boolean isFree() {
            return exclusive == null && shared.isEmpty();
        }
    }

    private final Map<String, Holders> holders = new HashMap<>();
    /**
     * The held resources by table ({@link #ALL} under itself): a request looks only at those of
     * its own tables, not at everything every transaction holds (TPC-C's New-Orders hold dozens of
     * rows each, which every lock request went through).
     */
    private final Map<String, Set<String>> heldInTable = new HashMap<>();
    /** Of those, the key prefixes: besides itself and its table, all that one row can meet. */
    private final Map<String, Set<String>> prefixesInTable = new HashMap<>();
    /** Per transaction, the resources it holds in either mode (what releaseAll gives back). */
    private final Map<Long, Set<String>> held = new HashMap<>();
    /** A waiting transaction: what it asks for, who blocked it when it last looked, and how to wake it. */
    private record Waiter(Access access, Set<Long> blockers, Condition wakeUp) {
    }

    /** Guards everything here; each waiter has its own condition. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Waiting transaction to what it waits for (the wait-for graph's edges go to its blockers). */
    private final Map<Long, Waiter> waiting = new HashMap<>();

    /** Takes the locks if nothing is in the way, else takes nothing and answers false ({@code NOWAIT}). */
    public boolean tryAcquire(long tx, Access access) {
        lock.lock();
        try {
            if (!blockers(tx, access).isEmpty()) {
                return false;
            }
            grant(tx, access);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Blocks until the transaction holds everything; what it already holds counts (a shared lock may upgrade). */
    public void acquire(long tx, Access access, long timeoutMillis)
            throws SQLTransactionRollbackException, InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        boolean waited = false;
        lock.lock();
        try {
            while (true) {
                Set<Long> blockers = blockers(tx, access);
                if (blockers.isEmpty()) {
                    break;
                }
                // one holding nothing closes no cycle: no one waits for it (cycles are found by whoever
                // closes them); skipping it spares a search of a graph where newcomers wait behind each other
                if (held.containsKey(tx) && closesCycle(tx, blockers)) {
                    throw new LockConflict(LockConflict.Kind.DEADLOCK,
                            "transaction rolled back to break a deadlock between transactions");
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new LockConflict(LockConflict.Kind.TIMEOUT, "transaction rolled back: waited more than " + timeoutMillis
                            + " ms for a conflicting transaction to finish (wanted "
                            + names(access.writes()) + " written, " + names(access.reads()) + " read; "
                            + blockers.size() + " transaction(s) in the way, one holding "
                            + names(held.getOrDefault(blockers.iterator().next(), Set.of())) + ")");
                }
                Waiter me = new Waiter(access, blockers, lock.newCondition());
                waiting.put(tx, me);
                waited = true;
                try {
                    me.wakeUp().awaitNanos(remaining);
                } finally {
                    waiting.remove(tx);
                }
            }
            grant(tx, access);
        } finally {
            if (waited) {
                wakeWaitersBlockedBy(tx); // it no longer waits: readers queued behind it may go on
            }
            lock.unlock();
        }
    }

    /** Wakes the waiters that {@code tx} blocked when they last looked: only a change of it can let them go on. */
    private void wakeWaitersBlockedBy(long tx) {
        for (Waiter w : waiting.values()) {
            if (w.blockers().contains(tx)) {
                w.wakeUp().signal();
            }
        }
    }

    /** A few resource names, readable: "*" for the whole database, a row's parts joined by ':'. */
    private static String names(java.util.Collection<String> resources) {
        return resources.stream().limit(5).map(r -> r.equals(ALL) ? "*" : r.replace('\0', ':'))
                .collect(java.util.stream.Collectors.joining(", ", "[", resources.size() > 5 ? ", ...]" : "]"));
    }

    private void grant(long tx, Access access) {
        if (access.isEmpty()) {
            return;
        }
        Set<String> mine = held.computeIfAbsent(tx, k -> new HashSet<>());
        for (String r : access.writes()) {
            Holders h = holdersOf(r);
            h.shared.remove(tx); // an upgrade: no one else holds it now
            h.exclusive = tx;
            mine.add(r);
        }
        for (String r : access.reads()) {
            Holders h = holdersOf(r);
            if (h.exclusive == null) { // otherwise tx holds it exclusively, which covers reading
                h.shared.add(tx);
            }
            mine.add(r);
        }
    }

    /** Releases everything the transaction holds. */
    public void releaseAll(long tx) {
        lock.lock();
        try {
            Set<String> mine = held.remove(tx);
            if (mine != null) {
                for (String r : mine) {
                    Holders h = holders.get(r);
                    if (Long.valueOf(tx).equals(h.exclusive)) {
                        h.exclusive = null;
                    }
                    h.shared.remove(tx);
                    if (h.isFree()) {
                        free(r);
                    }
                }
                wakeWaitersBlockedBy(tx);
            }
        } finally {
            lock.unlock();
        }
    }

    public boolean holdsAny(long tx) {
        lock.lock();
        try {
            return held.containsKey(tx);
        } finally {
            lock.unlock();
        }
    }

    /** Whether the transaction is waiting for a lock now (management, and tests that need a waiter). */
    public boolean isWaiting(long tx) {
        lock.lock();
        try {
            return waiting.containsKey(tx);
        } finally {
            lock.unlock();
        }
    }

    /** Other transactions holding something that conflicts with {@code access}, and older ones it must queue behind. */
    private Set<Long> blockers(long tx, Access access) {
        Set<Long> result = new HashSet<>();
        Set<String> mine = held.getOrDefault(tx, Set.of());
        if (mine.isEmpty()) {
            olderWaiters(tx, access, result);
        }
        for (String w : access.writes()) {
            forEachOverlapping(w, h -> {
                addOther(result, h.exclusive, tx);
                for (Long reader : h.shared) {
                    addOther(result, reader, tx);
                }
            });
        }
        for (String r : access.reads()) {
            forEachOverlapping(r, h -> addOther(result, h.exclusive, tx));
        }
        for (String r : access.reads()) {
            if (!mine.contains(r)) {
                waitingWriters(r, tx, result);
            }
        }
        return result;
    }

    /**
     * Older transactions waiting to write r (or everything): a newer reader of r queues behind
     * them. An older reader does not: a transaction refused with 40001 and run again is newer than
     * every reader it had made wait, so it cannot keep one waiting for ever by coming back (a
     * Payment writing {@code warehouse} that, refused for a cycle with a New-Order waiting to read
     * it, came back ahead of that New-Order every time was a livelock).
     */
    private void waitingWriters(String r, long tx, Set<Long> result) {
        for (Map.Entry<Long, Waiter> w : waiting.entrySet()) {
            if (w.getKey() < tx && overlapsAny(w.getValue().access().writes(), r)) {
                result.add(w.getKey());
            }
        }
    }

    /**
     * Older transactions waiting for access that conflicts with this: a transaction that holds
     * nothing yet queues behind them (it cannot close a cycle: no one waits for it). Otherwise a
     * newcomer could take a lock an older transaction was about to get, again and again.
     */
    private void olderWaiters(long tx, Access access, Set<Long> result) {
        for (Map.Entry<Long, Waiter> w : waiting.entrySet()) {
            Access theirs = w.getValue().access();
            if (w.getKey() < tx && (writesAny(access, theirs.reads()) || writesAny(access, theirs.writes())
                    || writesAny(theirs, access.reads()))) {
                result.add(w.getKey());
            }
        }
    }

    /** Whether {@code access} writes something that may be one of these resources (see {@link RowKeys#overlap}). */
    private static boolean writesAny(Access access, Set<String> resources) {
        for (String r : resources) {
            if (overlapsAny(access.writes(), r)) {
                return true;
            }
        }
        return false;
    }

    /** The holders of every held resource that may name some of the rows {@code r} names ({@link RowKeys#overlap}). */
    private void forEachOverlapping(String r, Consumer<Holders> action) {
        if (r.equals(ALL)) {
            holders.values().forEach(action);
            return;
        }
        visit(holders.get(ALL), action);
        String table = RowKeys.tableOf(r);
        if (RowKeys.isRow(r) && !RowKeys.isPrefix(r)) { // itself, its table, the prefixes covering it
            visit(holders.get(r), action);
            visit(holders.get(table), action);
            for (String prefix : prefixesInTable.getOrDefault(table, Set.of())) {
                if (RowKeys.overlap(prefix, r)) {
                    visit(holders.get(prefix), action);
                }
            }
            return;
        }
        for (String held : heldInTable.getOrDefault(table, Set.of())) {
            if (RowKeys.overlap(held, r)) {
                visit(holders.get(held), action);
            }
        }
    }

    private static void visit(Holders h, Consumer<Holders> action) {
        if (h != null) {
            action.accept(h);
        }
    }

    private Holders holdersOf(String r) {
        return holders.computeIfAbsent(r, k -> {
            String table = RowKeys.tableOf(k);
            heldInTable.computeIfAbsent(table, x -> new HashSet<>()).add(k);
            if (RowKeys.isPrefix(k)) {
                prefixesInTable.computeIfAbsent(table, x -> new HashSet<>()).add(k);
            }
            return new Holders();
        });
    }

    private void free(String r) {
        holders.remove(r);
        String table = RowKeys.tableOf(r);
        forget(heldInTable, table, r);
        if (RowKeys.isPrefix(r)) {
            forget(prefixesInTable, table, r);
        }
    }

    private static void forget(Map<String, Set<String>> byTable, String table, String r) {
        Set<String> in = byTable.get(table);
        in.remove(r);
        if (in.isEmpty()) {
            byTable.remove(table);
        }
    }

    private static boolean overlapsAny(Set<String> resources, String r) {
        for (String mine : resources) {
            if (RowKeys.overlap(mine, r)) {
                return true;
            }
        }
        return false;
    }

    private static void addOther(Set<Long> result, Long holder, long tx) {
        if (holder != null && holder != tx) {
            result.add(holder);
        }
    }

    /** Whether some blocker waits, directly or transitively, for tx. */
    private boolean closesCycle(long tx, Set<Long> blockers) {
        Deque<Long> todo = new ArrayDeque<>(blockers);
        Set<Long> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            long t = todo.pop();
            if (t == tx) {
                return true;
            }
            if (!seen.add(t)) {
                continue;
            }
            Waiter wanted = waiting.get(t);
            if (wanted != null) {
                todo.addAll(blockers(t, wanted.access()));
            }
        }
        return false;
    }
}
