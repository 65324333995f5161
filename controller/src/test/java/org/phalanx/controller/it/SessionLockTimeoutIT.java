package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * A session's own lock timeout ({@code SET lock_timeout}, {@code SET innodb_lock_wait_timeout}) ends
 * a write waiting for a row another transaction holds as the engine would (PostgreSQL's 55P03,
 * which aborts the transaction; MariaDB's 1205, which ends the statement only): the write waited in
 * the controller's lock manager for the virtual database's lock timeout instead, and succeeded once
 * the holder committed.
 */
class SessionLockTimeoutIT extends WithEngineCluster {
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void aWriteGivesUpAtTheSessionsLockTimeout(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_session_lock_timeout", "");
        try (Connection holder = cluster.connect(); Connection waiter = cluster.connect();
             Statement h = holder.createStatement(); Statement w = waiter.createStatement()) {
            h.executeUpdate("CREATE TABLE jobs (id INTEGER PRIMARY KEY, state VARCHAR(10))");
            h.executeUpdate("INSERT INTO jobs VALUES (1, 'new'), (2, 'new')");
            holder.setAutoCommit(false);
            h.executeUpdate("UPDATE jobs SET state = 'taken' WHERE id = 1");
            w.execute(kind == Kind.POSTGRESQL ? "SET lock_timeout = '1s'" : "SET SESSION innodb_lock_wait_timeout = 1");
            waiter.setAutoCommit(false);
            SQLException timedOut = assertThrows(SQLException.class,
                    () -> w.executeUpdate("UPDATE jobs SET state = 'mine' WHERE id = 1"));
            if (kind == Kind.POSTGRESQL) {
                assertEquals("55P03", timedOut.getSQLState(), timedOut.toString());
                waiter.rollback(); // the error aborted the transaction, as on PostgreSQL
            } else {
                assertEquals(1205, timedOut.getErrorCode(), timedOut.toString());
            }
            assertEquals(1, w.executeUpdate("UPDATE jobs SET state = 'mine' WHERE id = 2"));
            waiter.commit();
            holder.commit();
        }
        assertEquals(2, cluster.assertIdentical("jobs", "id"));
    }
}
