package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.testing.Sessions.update;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.testing.ServerDatabase;

/**
 * On a MariaDB virtual database the controller's own lock conflicts carry MariaDB's vendor codes
 * (Spring and Hibernate classify by them): a deadlock it breaks 1213, a lock waited for past the
 * timeout 1205; both 40001, the transaction rolled back.
 */
class ConflictCodesTest {
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

    @Test
    void deadlocksAndLockTimeoutsHaveMariaDbsCodes() throws Exception {
        db = ServerDatabase.create("mariadb", "phalanx_conflict_codes");
        rm = new RequestManager("codes", RequestManagerConfig.builder().lockTimeout(Duration.ofSeconds(2)).build(),
                List.of(BackendConfig.builder("b", db.url()).credentials(db.login()).poolSize(4).build()));
        rm.start();
        try (Session t1 = rm.openSession("u"); Session t2 = rm.openSession("u")) {
            update(t1, "CREATE TABLE a (id INT PRIMARY KEY, v INT NOT NULL)");
            update(t1, "CREATE TABLE b (id INT PRIMARY KEY, v INT NOT NULL)");
            update(t1, "INSERT INTO a VALUES (1, 0)");
            update(t1, "INSERT INTO b VALUES (1, 0)");
            t1.setAutoCommit(false);
            t2.setAutoCommit(false);
            update(t1, "UPDATE a SET v = v + 1 WHERE id = 1");
            update(t2, "UPDATE b SET v = v + 1 WHERE id = 1");
            CompletableFuture<Long> t1WantsB = CompletableFuture.supplyAsync(() -> {
                try {
                    return update(t1, "UPDATE b SET v = v + 1 WHERE id = 1");
                } catch (SQLException e) {
                    throw new RuntimeException(e);
                }
            });
            Thread.sleep(200); // t1 now waits for t2's row of b
            SQLException deadlock = assertThrows(SQLException.class, () -> update(t2, "UPDATE a SET v = v + 1 WHERE id = 1"));
            assertEquals("40001", deadlock.getSQLState(), deadlock.getMessage());
            assertEquals(1213, deadlock.getErrorCode(), deadlock.getMessage());
            assertEquals(1L, t1WantsB.get(10, TimeUnit.SECONDS));

            t2.rollback();
            SQLException timeout = assertThrows(SQLException.class, () -> update(t2, "UPDATE a SET v = v + 1 WHERE id = 1"));
            assertEquals("40001", timeout.getSQLState(), timeout.getMessage());
            assertEquals(1205, timeout.getErrorCode(), timeout.getMessage());
            t1.commit();
        }
    }
}
