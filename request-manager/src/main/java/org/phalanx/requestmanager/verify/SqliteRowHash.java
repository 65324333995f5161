package org.phalanx.requestmanager.verify;

import java.sql.Connection;
import java.sql.SQLException;
import org.phalanx.engine.SqlState;
import org.sqlite.Function;
import org.sqlite.SQLiteConnection;

/**
 * SQLite has no md5: the row hash is a Java function registered on the snapshot's connection.
 * It runs inside the embedded engine, called by SQLite for each row of the checksum query, so the
 * rows never travel as results; only the aggregate does.
 */
final class SqliteRowHash extends Function {
    private SqliteRowHash() {
    }

    /** Registers {@code phalanx_row_hash(text)} on the connection (idempotent; a pooled connection keeps it). */
    static void register(Connection c) throws SQLException {
        SQLiteConnection sqlite;
        try {
            sqlite = c.unwrap(SQLiteConnection.class);
        } catch (SQLException e) {
            // a driver loaded from a driverJar of its own is another class: our Function cannot reach it
            throw new SQLException("cannot register the row hash function on this SQLite connection (" + e.getMessage()
                    + "); a backend whose driver comes from a driverJar cannot be verified",
                    SqlState.FEATURE_NOT_SUPPORTED.code(), e);
        }
        Function.create(sqlite, CanonicalRow.SQLITE_HASH_FUNCTION, new SqliteRowHash(), 1, Function.FLAG_DETERMINISTIC);
    }

    @Override
    protected void xFunc() throws SQLException {
        String text = value_text(0);
        if (text == null) {
            result();
        } else {
            result(CanonicalRow.hashOf(text));
        }
    }
}
