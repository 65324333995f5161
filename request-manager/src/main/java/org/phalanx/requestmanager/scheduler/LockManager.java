package org.phalanx.requestmanager.scheduler;

import java.sql.SQLTransactionRollbackException;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Exclusive locks that writing transactions hold until their commit or rollback is queued on
 * every backend, so two transactions never interleave conflicting writes. A resource is a table
 * name or {@link #ALL}, which conflicts with every other resource.
 *
 * <p>The scheduler never deadlocks: a transaction whose wait would close a cycle in the
 * wait-for graph, or that waits longer than the timeout, is refused with SQLState 40001 and
 * its caller rolls it back everywhere.
 */
public final class LockManager {
    public static final String ALL = "*";

    private final Map<String, Long> owners = new HashMap<>();
    private final Map<Long, Set<String>> held = new HashMap<>();
    /** Waiting transaction to the resources it waits for (the wait-for graph's edges go to their owners). */
    private final Map<Long, Collection<String>> waiting = new HashMap<>();

    /** Blocks until the transaction holds every resource; those it already holds count. */
    public synchronized void acquire(long tx, Collection<String> resources, long timeoutMillis)
            throws SQLTransactionRollbackException, InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            Set<Long> blockers = blockers(tx, resources);
            if (blockers.isEmpty()) {
                break;
            }
            if (closesCycle(tx, blockers)) {
                throw new SQLTransactionRollbackException(
                        "transaction rolled back to break a deadlock between transactions", "40001");
            }
            long remaining = (deadline - System.nanoTime()) / 1_000_000L;
            if (remaining <= 0) {
                throw new SQLTransactionRollbackException("transaction rolled back: waited more than "
                        + timeoutMillis + " ms for a conflicting transaction to finish", "40001");
            }
            waiting.put(tx, resources);
            try {
                wait(remaining);
            } finally {
                waiting.remove(tx);
            }
        }
        Set<String> mine = held.computeIfAbsent(tx, k -> new HashSet<>());
        for (String r : resources) {
            owners.put(r, tx);
            mine.add(r);
        }
    }

    /** Releases everything the transaction holds. */
    public synchronized void releaseAll(long tx) {
        Set<String> mine = held.remove(tx);
        if (mine != null) {
            for (String r : mine) {
                owners.remove(r);
            }
            notifyAll();
        }
    }

    public synchronized boolean holdsAny(long tx) {
        return held.containsKey(tx);
    }

    private Set<Long> blockers(long tx, Collection<String> resources) {
        Set<Long> result = new HashSet<>();
        for (String r : resources) {
            if (ALL.equals(r)) {
                for (Long owner : held.keySet()) {
                    if (owner != tx) {
                        result.add(owner);
                    }
                }
                return result;
            }
            Long owner = owners.get(r);
            if (owner != null && owner != tx) {
                result.add(owner);
            }
            Long allOwner = owners.get(ALL);
            if (allOwner != null && allOwner != tx) {
                result.add(allOwner);
            }
        }
        return result;
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
            Collection<String> wanted = waiting.get(t);
            if (wanted != null) {
                todo.addAll(blockers(t, wanted));
            }
        }
        return false;
    }
}
