package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 16, done-when 5 through the driver: the levels a connection reports are the ones it gets. */
class IsolationLevelsIT {
    @TempDir
    Path dir;

    /** What a connection reports, and that SQL and JDBC change it alike. */
    private static void assertLevels(Connection c, int expectedDefault) throws SQLException {
        assertEquals(expectedDefault, c.getMetaData().getDefaultTransactionIsolation());
        assertEquals(expectedDefault, c.getTransactionIsolation());
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            assertEquals(Connection.TRANSACTION_REPEATABLE_READ, c.getTransactionIsolation());
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(Connection.TRANSACTION_SERIALIZABLE, c.getTransactionIsolation());
            s.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
            assertEquals(Connection.TRANSACTION_READ_COMMITTED, c.getTransactionIsolation());
        }
        assertThrows(SQLException.class, () -> c.setTransactionIsolation(Connection.TRANSACTION_NONE));
    }

    @Test
    void aSqliteVirtualDatabaseIsSerializableByDefault() throws Exception {
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "first", "b1", "b2");
             Connection c = cluster.connect()) {
            assertLevels(c, Connection.TRANSACTION_SERIALIZABLE);
        }
    }

    @Test
    void aMixOfEnginesDefaultsToTheWeakestOfTheirDefaults() throws Exception {
        try (HeterogeneousCluster cluster = new HeterogeneousCluster(dir, "phalanx_iso_levels", "first");
             Connection c = cluster.connect()) {
            assertLevels(c, Connection.TRANSACTION_READ_COMMITTED); // PostgreSQL's, weaker than MariaDB's and SQLite's
        }
    }
}
