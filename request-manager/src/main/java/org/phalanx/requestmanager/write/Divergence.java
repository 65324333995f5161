package org.phalanx.requestmanager.write;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.pipeline.Transaction;

/** What happens to a backend that failed a write, commit or rollback that other backends completed. */
public final class Divergence {
    private Divergence() {
    }

    /** It has diverged and leaves service, unless it was contention (the transaction then must roll back). */
    public static void diverged(Backend b, SQLException e, Transaction t, String what) {
        if (t != null && BackendErrors.isContention(e, b.dialect())) {
            t.doom(new SQLTransactionRollbackException("transaction rolled back: backend " + b.name()
                    + " could not apply it because of lock contention (" + e.getMessage() + ")",
                    SqlState.SERIALIZATION_FAILURE.code()));
            return;
        }
        b.disable("failed " + what + " that other backends completed: " + e.getMessage()
                + " [SQLState " + e.getSQLState() + "]");
    }

    /**
     * Whether a transaction's branches include PostgreSQL and another engine: after an error
     * PostgreSQL aborts its branch while the others go on, so the transaction must end everywhere.
     */
    public static boolean spansPostgresAndOthers(Transaction t) {
        boolean postgres = false;
        boolean other = false;
        for (Backend b : t.branches().keySet()) {
            postgres |= b.dialect() == Engine.POSTGRESQL;
            other |= b.dialect() != Engine.POSTGRESQL;
        }
        return postgres && other;
    }
}
