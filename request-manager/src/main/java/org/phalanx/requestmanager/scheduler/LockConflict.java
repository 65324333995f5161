package org.phalanx.requestmanager.scheduler;

import java.sql.SQLTransactionRollbackException;
import org.phalanx.engine.SqlState;

/**
 * The lock manager's refusal of a transaction (40001, rolled back): a deadlock it broke, or a lock
 * waited for past the timeout. The session gives it an engine's vendor code ({@code session.ConflictErrors}).
 */
public final class LockConflict extends SQLTransactionRollbackException {
    /** Why the transaction was refused. */
    public enum Kind { DEADLOCK, TIMEOUT }

    private final Kind kind;

    LockConflict(Kind kind, String message) {
        super(message, SqlState.SERIALIZATION_FAILURE.code());
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
