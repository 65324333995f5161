package org.phalanx.requestmanager.recovery;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.phalanx.engine.Engine;

/**
 * Opens a read snapshot on a connection: a dump read through it sees the database exactly as it
 * was when the snapshot was taken, while writes go on. The caller takes it with writes quiesced.
 */
public final class Snapshots {
    private Snapshots() {
    }

    public static void begin(Connection c, Engine engine) throws SQLException {
        switch (engine) {
            case POSTGRESQL:
                c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                c.setAutoCommit(false);
                run(c, "SELECT 1"); // the snapshot is taken by the first statement
                break;
            case MARIADB:
                c.setAutoCommit(false);
                run(c, "START TRANSACTION WITH CONSISTENT SNAPSHOT");
                break;
            default:
                // SQLite in WAL mode: a read transaction keeps the snapshot of its first read
                c.setAutoCommit(false);
                run(c, "SELECT COUNT(*) FROM sqlite_master");
                break;
        }
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
