package org.phalanx.requestmanager.backend;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One short transaction on a pooled auto-commit connection: auto-commit off for the work (which
 * commits), rolled back if the work fails, auto-commit restored in every case.
 *
 * <p>When the connection broke during the work, rolling back and restoring auto-commit fail too
 * ("connection is closed"); those failures are dropped so the caller sees the work's own error,
 * whose SQLState says the connection is lost. Reporting the later one instead would make a lost
 * backend look like a statement error, and disable the replicas that succeeded.
 */
public final class LocalTransaction {
    private LocalTransaction() {
    }

    /** A piece of backend work. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws Exception;
    }

    /** A piece of backend work that only throws SQLException. */
    @FunctionalInterface
    public interface SqlWork<T> {
        T run() throws SQLException;
    }

    /** Runs work, which ends by committing, with auto-commit off. */
    public static <T> T run(Connection c, Work<T> work) throws Exception {
        c.setAutoCommit(false);
        try {
            return work.run();
        } catch (Exception | Error e) {
            rollbackQuietly(c);
            throw e;
        } finally {
            restoreAutoCommit(c);
        }
    }

    /** {@link #run(Connection, Work)} for work that only throws SQLException. */
    public static <T> T runSql(Connection c, SqlWork<T> work) throws SQLException {
        try {
            return run(c, work::run);
        } catch (SQLException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("unreachable: the work throws only SQLException", e);
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // a broken connection: the pool discards it, and the transaction with it
        }
    }

    private static void restoreAutoCommit(Connection c) {
        try {
            c.setAutoCommit(true);
        } catch (SQLException ignored) {
            // a broken connection: the pool discards it
        }
    }
}
