package org.phalanx.requestmanager.write;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.function.Predicate;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;
import org.phalanx.requestmanager.backend.SqlStates;
import org.phalanx.requestmanager.exec.ReplicatedWrite.Disagreement;
import org.phalanx.requestmanager.pipeline.Transaction;

/**
 * What happens to a backend whose outcome is not the agreed one: it leaves service when what it
 * holds now differs from the others and cannot be taken back; an open transaction is rolled
 * back instead, because its branches can still be made alike by ending it everywhere.
 */
final class Divergence {
    private Divergence() {
    }

    /**
     * For a write.
     *
     * @param t the transaction it belongs to, or null for an auto-commit write
     * @param undoesItself whether a backend that succeeded alone rolls its own unit back (a write
     *     waiting for agreement before it commits)
     */
    static Disagreement ofWrite(Transaction t, Predicate<Backend> undoesItself) {
        return new Disagreement() {
            @Override
            public void failed(Backend b, SQLException e) {
                if (t != null && BackendErrors.isContention(e, b.dialect())) {
                    t.doom(new SQLTransactionRollbackException("transaction rolled back: backend " + b.name()
                            + " could not apply it because of lock contention (" + e.getMessage() + ")",
                            SqlState.SERIALIZATION_FAILURE.code()));
                    return;
                }
                if (t != null && BackendErrors.isConnectionFailure(e)) {
                    // only the branch's session ended (the backend still connects) and its server rolled the branch
                    // back: so must the others, unless the transaction's commit has begun (then the backend lacks it)
                    b.leaveUnlessItConnects(lostConnection(b, e, "a write"),
                            () -> t.doomUnlessEnding(Transaction.sessionEnded(b.name(), e)));
                    return;
                }
                disableFailed(b, e, "a write");
            }

            @Override
            public void succeeded(Backend b, SQLException agreed) {
                if (t != null) {
                    t.doom(new SQLTransactionRollbackException("transaction rolled back: backend " + b.name()
                            + " applied a statement the others refused (" + agreed.getMessage()
                            + "); its branch cannot be undone alone", SqlState.SERIALIZATION_FAILURE.code()));
                } else if (!undoesItself.test(b)) {
                    disableSucceeded(b, agreed, "a write");
                }
            }
        };
    }

    /** For a commit or a rollback. */
    static Disagreement ofEnd(boolean commit) {
        String what = commit ? "a commit" : "a rollback";
        return new Disagreement() {
            @Override
            public void failed(Backend b, SQLException e) {
                if (!commit && BackendErrors.isConnectionFailure(e)) {
                    return; // a server rolls back the transaction of a session that ended: nothing differs
                }
                disableFailed(b, e, what);
            }

            @Override
            public void succeeded(Backend b, SQLException agreed) {
                if (commit) {
                    disableSucceeded(b, agreed, what); // it kept what the others threw away
                }
            }
        };
    }

    /**
     * A lost connection leaves the backend's data as its record of applied positions says: replay
     * catches it up. Any other failure means its data differs: only a restored dump brings it back.
     */
    private static void disableFailed(Backend b, SQLException e, String what) {
        if (BackendErrors.isConnectionFailure(e) || e instanceof CommitLostWithSession) {
            b.disableToCatchUp(lostConnection(b, e, what));
        } else {
            b.disable("failed " + what + " that the other backends completed: " + described(b, e));
        }
    }

    private static String lostConnection(Backend b, SQLException e, String what) {
        return "lost its connection during " + what + " that the other backends completed (enable it to catch up): "
                + described(b, e);
    }

    private static String described(Backend b, SQLException e) {
        return e.getMessage() + " [SQLState " + SqlStates.normalize(e, b.dialect()).getSQLState() + "]"; // SQLite's own is null
    }

    private static void disableSucceeded(Backend b, SQLException agreed, String what) {
        b.disable("completed " + what + " that the other backends refused: " + agreed.getMessage()
                + " [SQLState " + agreed.getSQLState() + "]");
    }

    /**
     * Whether a transaction's branches include PostgreSQL and another engine: after an error
     * PostgreSQL aborts its branch while the others go on, so the transaction must end everywhere.
     */
    static boolean spansPostgresAndOthers(Transaction t) {
        boolean postgres = false;
        boolean other = false;
        for (Backend b : t.branches().keySet()) {
            postgres |= b.dialect() == Engine.POSTGRESQL;
            other |= b.dialect() != Engine.POSTGRESQL;
        }
        return postgres && other;
    }
}
