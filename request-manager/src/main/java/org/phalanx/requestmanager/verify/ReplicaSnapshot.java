package org.phalanx.requestmanager.verify;

import java.sql.Connection;
import java.sql.SQLException;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.backend.Backend;

/**
 * One replica's connection holding the read snapshot of a consistent point: every query of a
 * table's verification on this replica reads through it. Closing it ends the snapshot.
 */
record ReplicaSnapshot(Backend backend, Connection connection, Engine engine, String quote) implements AutoCloseable {

    String name() {
        return backend.name();
    }

    @Override
    public void close() {
        try {
            connection.rollback(); // a read-only transaction: nothing to keep
        } catch (SQLException ignored) {
            // the pool resets it
        }
        try {
            connection.setAutoCommit(true);
        } catch (SQLException ignored) {
            // the pool resets it
        }
        try {
            connection.close();
        } catch (SQLException ignored) {
            // nothing more to do
        }
    }
}
