package org.phalanx.requestmanager.scheduler;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * What a write, or a whole transaction, reads and writes, as the scheduler's locks and the
 * backends' queues see it: table names, or {@link LockManager#ALL} for the whole database.
 * Reading is shared (readers of a table do not conflict with each other), writing is exclusive.
 *
 * <p>Kept normalised, so that every user agrees on what conflicts: a resource both read and
 * written counts as written only, and writing {@link LockManager#ALL} covers everything.
 */
public record Access(Set<String> reads, Set<String> writes) {
    /** The whole database, exclusively: DDL, statements not understood, checkpoints, BEGIN IMMEDIATE. */
    public static final Access EVERYTHING = new Access(Set.of(), Set.of(LockManager.ALL));
    public static final Access NOTHING = new Access(Set.of(), Set.of());

    public Access {
        if (writes.contains(LockManager.ALL)) {
            reads = Set.of();
            writes = Set.of(LockManager.ALL);
        } else {
            Set<String> onlyRead = new HashSet<>(reads);
            onlyRead.removeAll(writes);
            reads = Set.copyOf(onlyRead);
            writes = Set.copyOf(writes);
        }
    }

    /** Reading these tables (or {@link LockManager#ALL}: the whole database), shared. */
    public static Access reading(Collection<String> tables) {
        return new Access(Set.copyOf(tables), Set.of());
    }

    public static Access writing(Collection<String> tables) {
        return new Access(Set.of(), Set.copyOf(tables));
    }

    public static Access of(Collection<String> reads, Collection<String> writes) {
        return new Access(Set.copyOf(reads), Set.copyOf(writes));
    }

    public boolean writesAll() {
        return writes.contains(LockManager.ALL);
    }

    public boolean isEmpty() {
        return reads.isEmpty() && writes.isEmpty();
    }

    /** All of them together (a batch's elements), gathered at once. */
    public static Access unionOf(Collection<Access> all) {
        Set<String> r = new HashSet<>();
        Set<String> w = new HashSet<>();
        for (Access a : all) {
            r.addAll(a.reads);
            w.addAll(a.writes);
        }
        return new Access(r, w);
    }
}
