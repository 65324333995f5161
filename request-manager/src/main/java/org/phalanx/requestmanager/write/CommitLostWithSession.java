package org.phalanx.requestmanager.write;

import java.sql.SQLTransactionRollbackException;
import org.phalanx.engine.SqlState;

/**
 * A branch's commit lost its connection, and the commit did not happen there: the server answered
 * it by ending the session (killed, an idle-in-transaction timeout), or the backend's record of
 * applied positions lacks it. Its server rolled the branch back. A refusal that votes like any other, not a lost
 * connection (so it carries no connection error as its cause); where the others committed, the
 * backend's record lets replay catch it up.
 */
final class CommitLostWithSession extends SQLTransactionRollbackException {
    CommitLostWithSession(String backend, String lost) {
        super("the transaction was rolled back on backend " + backend + ": its session there ended before the commit ("
                + lost + ")", SqlState.SERIALIZATION_FAILURE.code());
    }
}
