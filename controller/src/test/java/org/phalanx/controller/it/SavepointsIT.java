package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.controller.it.Sql.update;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Savepoints (issue 18) through the JDBC API and in SQL, on two backends with a recovery log:
 * a rollback to a savepoint undoes the statements after it on every replica, a release keeps
 * them, a savepoint taken before the transaction wrote anything still exists on each backend it
 * writes later, and after a failed statement a rollback to a savepoint lets the transaction go on
 * (PostgreSQL's way out of an aborted transaction). Outside a transaction a savepoint is refused.
 * On PostgreSQL a released savepoint is refused before anything is sent, as pgjdbc refuses it: sent,
 * it aborted the transaction, whose commit then silently kept nothing (an outside tester's finding).
 */
class SavepointsIT extends WithEngineCluster {
    @ParameterizedTest
    @EnumSource(Kind.class)
    void savepointsRollBackAndReleaseOnEveryReplica(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_savepoints", "", "", "<recoveryLog dir=\"log\"/>");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            SQLException outside = assertThrows(SQLException.class, c::setSavepoint);
            assertEquals("25P01", outside.getSQLState());

            c.setAutoCommit(false);
            Savepoint first = c.setSavepoint(); // before any write: the backends get it all the same
            update(c, "INSERT INTO t VALUES (1)");
            Savepoint afterOne = c.setSavepoint();
            update(c, "INSERT INTO t VALUES (2)");
            c.rollback(afterOne);
            update(c, "INSERT INTO t VALUES (3)");
            Savepoint named = c.setSavepoint("keep_four");
            update(c, "INSERT INTO t VALUES (4)");
            c.releaseSavepoint(named);
            if (kind == Kind.POSTGRESQL) { // refused before it is sent, as pgjdbc: the transaction goes on
                SQLException released = assertThrows(SQLException.class, () -> c.rollback(named));
                assertEquals("3B000", released.getSQLState(), released.getMessage());
            }
            s.execute("SAVEPOINT in_sql");
            update(c, "INSERT INTO t VALUES (5)");
            s.execute("ROLLBACK TO SAVEPOINT in_sql");
            // a failed statement, then back to a savepoint: the transaction goes on
            Savepoint beforeFailure = c.setSavepoint();
            assertThrows(SQLException.class, () -> update(c, "INSERT INTO t VALUES (1)"));
            c.rollback(beforeFailure);
            update(c, "INSERT INTO t VALUES (6)");
            c.commit();
            assertEquals(first.getSavepointId() + 1, afterOne.getSavepointId());
            c.setAutoCommit(true);
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(4, cluster.assertIdentical("t", "id"));
        try (Connection direct = cluster.direct(cluster.backends().get(0)); Statement s = direct.createStatement();
             var rs = s.executeQuery("SELECT id FROM t ORDER BY id")) {
            StringBuilder ids = new StringBuilder();
            while (rs.next()) {
                ids.append(rs.getInt(1)).append(' ');
            }
            assertEquals("1 3 4 6 ", ids.toString());
        }
    }
}
