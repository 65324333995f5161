package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.testing.Sessions.update;
import static org.phalanx.testing.Sessions.value;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.testing.ServerDatabase;
import org.phalanx.testing.SqliteCluster;

/**
 * A statement's query timeout bounds its wait for another transaction's locks, as it does on one
 * database (applications set it to bound lock waits: Spring's transaction timeout, JPA's query
 * timeout): past it the statement fails with {@code HYT00}, long before the controller's lock
 * timeout (60 s here) would refuse the transaction with 40001. The transaction goes on, as on
 * MariaDB and SQLite; on PostgreSQL it is aborted, as there.
 */
class LockWaitQueryTimeoutTest {
    @TempDir
    Path dir;
    private RequestManager rm;
    private ServerDatabase db;

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
        if (db != null) {
            db.close();
        }
    }

    private static Request withTimeout(String sql, int seconds) {
        return new Request(sql, List.of(), Request.Expect.ANY, null, 0, 0, seconds);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql", "mariadb"})
    void aLockWaitEndsWithTheStatementsQueryTimeout(String engine) throws Exception {
        List<BackendConfig> backends;
        if (engine.equals("sqlite")) {
            backends = new SqliteCluster(dir, "a", "b").backendConfigs();
        } else {
            db = ServerDatabase.create(engine, "phalanx_lock_wait_timeout");
            backends = List.of(BackendConfig.builder("b", db.url()).credentials(db.login()).poolSize(4).build());
        }
        rm = new RequestManager("waits", RequestManagerConfig.builder().lockTimeout(Duration.ofSeconds(60)).build(), backends);
        rm.start();
        boolean rowLocks = !engine.equals("sqlite");
        try (Session holder = rm.openSession("u"); Session other = rm.openSession("u")) {
            update(holder, "CREATE TABLE acc (id INTEGER PRIMARY KEY, bal INTEGER)");
            update(holder, "INSERT INTO acc VALUES (1, 0), (2, 0), (3, 0)");
            holder.setAutoCommit(false);
            update(holder, "UPDATE acc SET bal = 1 WHERE id = 1");

            other.setAutoCommit(false);
            if (rowLocks) {
                update(other, "UPDATE acc SET bal = 2 WHERE id = 2"); // another row: no wait
            }
            SQLException waited = assertThrows(SQLException.class,
                    () -> other.execute(withTimeout("UPDATE acc SET bal = 2 WHERE id = 1", 1)).close());
            assertEquals(SQLTimeoutException.class, waited.getClass(), waited.getMessage());
            assertEquals("HYT00", waited.getSQLState());
            if (engine.equals("postgresql")) {
                assertThrows(SQLException.class, () -> update(other, "UPDATE acc SET bal = 3 WHERE id = 3"),
                        "the transaction is aborted, as on PostgreSQL");
                other.rollback();
                holder.commit();
            } else {
                holder.commit(); // its locks go: the other's transaction goes on and writes
                update(other, "UPDATE acc SET bal = 3 WHERE id = 3");
                other.commit();
            }
            holder.setAutoCommit(true);
            assertEquals(1, ((Number) value(holder, "SELECT bal FROM acc WHERE id = 1")).intValue(), "the wait wrote nothing");
            assertEquals(engine.equals("postgresql") ? 0 : 3,
                    ((Number) value(holder, "SELECT bal FROM acc WHERE id = 3")).intValue());

            // a SERIALIZABLE read waiting for a writer's lock the same way
            holder.setAutoCommit(false);
            update(holder, "UPDATE acc SET bal = 5 WHERE id = 1");
            other.setAutoCommit(false);
            other.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            SQLException read = assertThrows(SQLException.class,
                    () -> other.execute(withTimeout("SELECT sum(bal) FROM acc", 1)).close());
            assertEquals("HYT00", read.getSQLState(), read.getMessage());
            other.rollback();
            holder.commit();
        }
    }
}
