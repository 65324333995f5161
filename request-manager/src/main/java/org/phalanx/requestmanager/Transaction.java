package org.phalanx.requestmanager;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Map;
import java.util.Set;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.cache.Touch;
import org.phalanx.requestmanager.scheduler.Access;

/**
 * An explicit transaction of one session. It joins the backends lazily, at its first write
 * (a branch = its own connection on each backend); reads before that run outside it.
 */
final class Transaction {
    final long id;
    /** Backend to this transaction's connection there, once begun. */
    final Map<Backend, Connection> branches = new LinkedHashMap<>();
    /**
     * Everything its writes locked, read (shared) or written (exclusive); its commit/rollback
     * orders against these on each backend, so a later write of a table it read waits for it too.
     */
    Access access = Access.NOTHING;
    /** Tables it has written (its reads of them must not use the result cache). */
    final Set<String> writtenTables = new HashSet<>();
    /** What its writes may change, for the result cache when it commits; null once unknown. */
    List<Touch> cacheWrites = new ArrayList<>();

    /** Set when the transaction can no longer commit everywhere; it must roll back. */
    volatile SQLException doomed;
    /**
     * Per backend, what undoes this transaction's DDL in the schema view; run by that backend's
     * rollback task, after the DDL itself has run there. Filled from backend threads.
     */
    final Map<Backend, List<Runnable>> schemaUndo = new ConcurrentHashMap<>();

    void undoLater(Backend b, Runnable undo) {
        schemaUndo.computeIfAbsent(b, k -> new CopyOnWriteArrayList<>()).add(undo);
    }

    void undoSchema(Backend b) {
        List<Runnable> undo = schemaUndo.remove(b);
        if (undo != null) {
            for (int i = undo.size() - 1; i >= 0; i--) {
                undo.get(i).run();
            }
        }
    }

    Transaction(long id) {
        this.id = id;
    }

    boolean begun() {
        return !branches.isEmpty();
    }
}
