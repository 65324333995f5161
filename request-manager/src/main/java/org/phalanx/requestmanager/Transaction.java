package org.phalanx.requestmanager;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.phalanx.requestmanager.backend.Backend;

/**
 * An explicit transaction of one session. It joins the backends lazily, at its first write
 * (a branch = its own connection on each backend); reads before that run outside it.
 */
final class Transaction {
    final long id;
    /** Backend to this transaction's connection there, once begun. */
    final Map<Backend, Connection> branches = new LinkedHashMap<>();
    /** Everything its writes locked; its commit/rollback orders against these. */
    final Set<String> resources = new HashSet<>();
    /** Set when the transaction can no longer commit everywhere; it must roll back. */
    volatile SQLException doomed;

    Transaction(long id) {
        this.id = id;
    }

    boolean begun() {
        return !branches.isEmpty();
    }
}
