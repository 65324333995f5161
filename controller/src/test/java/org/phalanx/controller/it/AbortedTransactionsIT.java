package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * On PostgreSQL a write that fails inside a transaction aborts it, and pgjdbc's {@code commit()} and
 * {@code setAutoCommit(true)} then roll it back without an error. Through Phalanx with a recovery
 * log they failed with 25P02 (the commit went to the backends, where recording its log position
 * failed in the aborted transaction), and the COMMIT stayed in the log: a replay committed what
 * the client was told had failed (two outside testers' finding).
 */
class AbortedTransactionsIT extends WithEngineCluster {
    @Test
    void aTransactionAFailedWriteAbortedRollsBackAtCommitAndStaysRolledBackThroughReplay() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_aborted_tx", "", "", "<recoveryLog dir=\"log\"/>");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t VALUES (1)");
            SQLException duplicate = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO t VALUES (1)"));
            assertEquals("23505", duplicate.getSQLState());
            assertEquals("25P02", assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO t VALUES (2)"))
                    .getSQLState());
            c.commit(); // rolls back, as pgjdbc's does

            s.executeUpdate("INSERT INTO t VALUES (3)");
            assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO t VALUES (3)"));
            c.setAutoCommit(true); // rolls back too
            assertEquals(0, count(s));

            cluster.vdb().disableBackend("b2");
            s.executeUpdate("INSERT INTO t VALUES (10)");
            cluster.vdb().enableBackend("b2"); // replays the log from before those transactions
            cluster.assertAllEnabled();
            assertEquals(1, count(s));
        }
        cluster.stopController();
        assertEquals(1, cluster.assertIdentical("t", "id"));
    }

    /**
     * After a failed read every statement gets 25P02 until the transaction ends, and its commit
     * rolls back: the second statement after the error ran in a new transaction that committed, and
     * the transaction's first write was gone although its commit succeeded (an outside tester's
     * finding: an application probing with a read and going on).
     */
    @Test
    void everyStatementAfterAFailedReadIsRefusedUntilTheTransactionEnds() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_aborted_read", "");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t VALUES (10)");
            assertEquals("22012", assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1 / 0")).getSQLState());
            for (int id = 11; id < 14; id++) {
                int row = id;
                assertEquals("25P02", assertThrows(SQLException.class,
                        () -> s.executeUpdate("INSERT INTO t VALUES (" + row + ")")).getSQLState());
            }
            assertEquals("25P02", assertThrows(SQLException.class, () -> s.executeQuery("SELECT count(*) FROM t"))
                    .getSQLState());
            c.commit(); // rolls back, as on PostgreSQL
            c.setAutoCommit(true);
            assertEquals(0, count(s), "nothing of the aborted transaction is stored");
        }
        cluster.stopController();
        assertEquals(0, cluster.assertIdentical("t", "id"));
    }

    private static long count(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
