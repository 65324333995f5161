package org.phalanx.requestmanager.pipeline;

import java.sql.Connection;
import java.sql.SQLException;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.exec.Closeables;

/**
 * A read-only REPEATABLE READ or SERIALIZABLE transaction's one backend transaction: every read
 * of it runs on this connection, in the engine's snapshot, so it takes no lock in the controller
 * and holds no writer back (see {@code SnapshotRead}). Opened at the transaction's first read.
 */
public final class ReadOnlySnapshot {
    private final Backend backend;
    private final Connection connection;

    private ReadOnlySnapshot(Backend backend, Connection connection) {
        this.backend = backend;
        this.connection = connection;
    }

    /**
     * A pooled connection of {@code user}'s on {@code b}, auto-commit off, at the level at which the
     * engine reads one snapshot: the first statement run on it takes the snapshot (PostgreSQL and
     * MariaDB at REPEATABLE READ, SQLite's read transaction in WAL mode; an unknown engine is asked
     * for SERIALIZABLE; another controller is told the transaction is read-only at the client's
     * level, and keeps a snapshot itself).
     */
    public static ReadOnlySnapshot open(Backend b, String user, SessionSettings settings, int isolation)
            throws SQLException {
        Connection c = b.connectionFor(user, settings);
        try {
            switch (b.engine()) {
                case POSTGRESQL, MARIADB -> c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                case PHALANX -> {
                    c.setReadOnly(true);
                    c.setTransactionIsolation(isolation);
                }
                case OTHER -> c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                case SQLITE -> { } // serializable, and a read transaction keeps its first read's snapshot
            }
            c.setAutoCommit(false);
            return new ReadOnlySnapshot(b, c);
        } catch (SQLException | RuntimeException e) {
            Closeables.closeQuietly(c);
            throw e;
        }
    }

    public Backend backend() {
        return backend;
    }

    public Connection connection() {
        return connection;
    }

    /** Ends the backend transaction (it wrote nothing: a rollback) and returns the connection to the pool. */
    public void end() {
        try {
            connection.rollback();
        } catch (SQLException | RuntimeException e) {
            // a broken connection: the pool discards it on close
        }
        Closeables.closeQuietly(connection);
    }
}
