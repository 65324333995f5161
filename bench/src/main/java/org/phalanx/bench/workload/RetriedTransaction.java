package org.phalanx.bench.workload;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a piece of work as one transaction on a connection already out of auto-commit, and again
 * from the start each time it is refused with 40001 (a lock cycle, a lock wait too long, a
 * serialization failure), as applications on a database's serializable level must; any other error
 * rolls it back and is thrown.
 */
final class RetriedTransaction {
    /** The work of one attempt. */
    @FunctionalInterface
    interface Work {
        void run() throws SQLException;
    }

    private RetriedTransaction() {
    }

    /** Runs {@code work} and commits, counting in {@code refusals} the attempts refused with 40001. */
    static void run(Connection c, Work work, AtomicLong refusals) throws SQLException {
        while (true) {
            try {
                work.run();
                c.commit();
                return;
            } catch (SQLException e) {
                rollbackAfter(c, e);
                if (!"40001".equals(e.getSQLState())) {
                    throw e;
                }
                refusals.incrementAndGet();
            } catch (RuntimeException e) {
                rollbackAfter(c, e);
                throw e;
            }
        }
    }

    /** Rolls back after {@code e}, which keeps a failure of the rollback as suppressed. */
    static void rollbackAfter(Connection c, Exception e) {
        try {
            c.rollback();
        } catch (SQLException suppressed) {
            e.addSuppressed(suppressed);
        }
    }
}
