package org.phalanx.requestmanager.backend;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.scheduler.LockManager;
import org.phalanx.requestmanager.scheduler.RowKeys;

/**
 * The ends of one backend's queue, per resource: the last task queued that writes it, and the
 * tasks queued since that only read it. They say what a new task must wait for:
 * <ul>
 *   <li>reading R: the last writer of R (not the other readers: reads of R do not change R);</li>
 *   <li>writing R: the last writer of R and every reader of R queued since, so that each reader
 *       (an {@code INSERT ... SELECT} from R) runs after exactly the writes of R queued before
 *       it, on every backend;</li>
 *   <li>writing {@link LockManager#ALL}: everything queued; and everything waits for it.</li>
 * </ul>
 * A row of a table ({@link RowKeys}) is a resource of its own that also counts as its table: a
 * task on a row orders against the table's ends, a task on the table against the ends of every
 * row of it, and tasks on different rows not at all (unless a key prefix names both).
 * Writers of R therefore run one after another in queue order, which is the total order.
 *
 * <p>Changed inside the write ordering's delivery (one thread at a time), and when a row's write
 * is done (its end is dropped), both under this object's lock; read concurrently by
 * {@link #writesDone}. Each resource's ends are one immutable value, replaced in one step, so a
 * concurrent reader never sees a moment without a newly queued task.
 */
final class QueueTails {
    /** Only unfinished readers are kept: a finished one holds no one back. */
    private record Ends(CompletableFuture<?> lastWrite, List<CompletableFuture<?>> readsSince) {
        boolean isDone() {
            if (lastWrite != null && !lastWrite.isDone()) {
                return false;
            }
            for (CompletableFuture<?> r : readsSince) {
                if (!r.isDone()) {
                    return false;
                }
            }
            return true;
        }
    }

    private final Map<String, Ends> ends = new ConcurrentHashMap<>();
    /** Per table, the rows ({@link RowKeys}) with ends of their own: a task on the whole table orders against them. */
    private final Map<String, Set<String>> rows = new ConcurrentHashMap<>();
    /** Per table, those of its rows that are {@link RowKeys#prefix prefixes} (few): a task on a row orders against them. */
    private final Map<String, Set<String>> prefixes = new ConcurrentHashMap<>();

    /** The unfinished tasks a new task with this access must wait for. */
    List<CompletableFuture<?>> predecessors(Access access) {
        List<CompletableFuture<?>> deps = new ArrayList<>();
        if (access.writesAll()) {
            return unfinished();
        }
        Ends all = ends.get(LockManager.ALL);
        if (all != null) {
            addIfPending(deps, all.lastWrite);
        }
        for (String r : access.writes()) {
            for (String other : overlapping(r)) {
                Ends e = ends.get(other);
                if (e != null) {
                    addIfPending(deps, e.lastWrite);
                    for (CompletableFuture<?> reader : e.readsSince) {
                        addIfPending(deps, reader);
                    }
                }
            }
        }
        for (String r : access.reads()) {
            for (String other : overlapping(r)) {
                Ends e = ends.get(other);
                if (e != null) {
                    addIfPending(deps, e.lastWrite);
                }
            }
        }
        return deps;
    }

    /**
     * What may name the same rows as r: r, and its table for a row, or the table's rows for a
     * table; for a row, also the table's prefixes that cover it, and for a prefix the rows it covers.
     */
    private List<String> overlapping(String r) {
        List<String> result = new ArrayList<>();
        result.add(r);
        if (RowKeys.isRow(r)) {
            String table = RowKeys.tableOf(r);
            result.add(table);
            Set<String> others = RowKeys.isPrefix(r) ? rows.get(table) : prefixes.get(table);
            if (others != null) {
                for (String other : others) {
                    if (!other.equals(r) && RowKeys.overlap(r, other)) {
                        result.add(other);
                    }
                }
            }
        } else {
            Set<String> tableRows = rows.get(r);
            if (tableRows != null) {
                result.addAll(tableRows);
            }
        }
        return result;
    }

    /** Records a task just queued with this access (after {@link #predecessors} for it). */
    synchronized void add(Access access, CompletableFuture<?> task) {
        if (access.writesAll()) {
            ends.put(LockManager.ALL, new Ends(task, List.of()));
            ends.keySet().removeIf(k -> !k.equals(LockManager.ALL)); // the new task comes after all of them
            rows.clear();
            prefixes.clear();
            return;
        }
        for (String r : access.writes()) {
            Ends mine = new Ends(task, List.of());
            ends.put(r, mine);
            if (RowKeys.isRow(r)) {
                rows.computeIfAbsent(RowKeys.tableOf(r), k -> ConcurrentHashMap.newKeySet()).add(r);
                if (RowKeys.isPrefix(r)) {
                    prefixes.computeIfAbsent(RowKeys.tableOf(r), k -> ConcurrentHashMap.newKeySet()).add(r);
                }
                // gone once done: a table's reads and writes look at its rows' ends, which must stay few
                task.whenComplete((v, e) -> forgetRow(r, mine));
            } else {
                // it comes after every task on the table's rows: those ends are covered by its own
                Set<String> tableRows = rows.remove(r);
                if (tableRows != null) {
                    tableRows.forEach(ends::remove);
                }
                prefixes.remove(r);
            }
        }
        for (String r : access.reads()) {
            Ends e = ends.get(r);
            List<CompletableFuture<?>> readers = new ArrayList<>();
            if (e != null) {
                for (CompletableFuture<?> reader : e.readsSince) {
                    addIfPending(readers, reader);
                }
            }
            readers.add(task);
            ends.put(r, new Ends(e == null ? null : e.lastWrite, List.copyOf(readers)));
        }
        if (ends.size() > 1024) {
            ends.values().removeIf(Ends::isDone);
            rows.values().forEach(tableRows -> tableRows.removeIf(row -> !ends.containsKey(row)));
            rows.values().removeIf(Set::isEmpty);
            prefixes.values().forEach(tablePrefixes -> tablePrefixes.removeIf(row -> !ends.containsKey(row)));
            prefixes.values().removeIf(Set::isEmpty);
        }
    }

    /** Drops a row's end once its last write is done (unless a newer write of the row replaced it). */
    private synchronized void forgetRow(String row, Ends done) {
        if (ends.remove(row, done)) {
            String table = RowKeys.tableOf(row);
            for (Map<String, Set<String>> index : List.of(rows, prefixes)) {
                Set<String> tableRows = index.get(table);
                if (tableRows != null) {
                    tableRows.remove(row);
                }
            }
        }
    }

    /**
     * Whether every write queued so far on these resources (or, for {@link LockManager#ALL}, every
     * task queued so far) has finished: a read of them then sees all of those writes.
     */
    boolean writesDone(Collection<String> resources) {
        if (resources.contains(LockManager.ALL)) {
            return unfinished().isEmpty();
        }
        for (String r : resources) {
            for (String other : overlapping(r)) {
                if (!isDone(ends.get(other))) {
                    return false;
                }
            }
        }
        // checked last: a whole-database task is put before it replaces the tables' ends, so a
        // table whose end has just gone is seen here behind that task, never as caught up
        return isDone(ends.get(LockManager.ALL));
    }

    private static boolean isDone(Ends e) {
        return e == null || e.lastWrite == null || e.lastWrite.isDone();
    }

    /** Unfinished tasks that, once finished, mean every task queued so far has finished. */
    List<CompletableFuture<?>> unfinished() {
        // a task runs after the earlier writers and readers of its resources: the ends cover them all
        List<CompletableFuture<?>> result = new ArrayList<>();
        for (Ends e : ends.values()) {
            addIfPending(result, e.lastWrite);
            for (CompletableFuture<?> reader : e.readsSince) {
                addIfPending(result, reader);
            }
        }
        return result;
    }

    private static void addIfPending(List<CompletableFuture<?>> list, CompletableFuture<?> f) {
        if (f != null && !f.isDone()) {
            list.add(f);
        }
    }
}
