package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.testing.Sessions.update;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.testing.ServerDatabase;

/**
 * {@code SELECT ... FOR UPDATE NOWAIT} on rows another transaction holds fails at once with the
 * engine's own error (job queues rely on it), instead of waiting the lock timeout for a 40001:
 * PostgreSQL's 55P03, its transaction aborted; MariaDB's 1205, its transaction going on.
 */
class NoWaitTest {
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

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aLockingReadThatMustNotWaitFailsAtOnce(String engine) throws Exception {
        db = ServerDatabase.create(engine, "phalanx_nowait");
        rm = new RequestManager("nowait", RequestManagerConfig.builder().lockTimeout(Duration.ofSeconds(60)).build(),
                List.of(BackendConfig.builder("b", db.url()).credentials(db.login()).poolSize(4).build()));
        rm.start();
        try (Session holder = rm.openSession("u"); Session other = rm.openSession("u")) {
            update(holder, "CREATE TABLE jobs (id INTEGER PRIMARY KEY, state VARCHAR(10))");
            update(holder, "INSERT INTO jobs VALUES (1, 'new')");
            holder.setAutoCommit(false);
            holder.execute(Request.of("SELECT id FROM jobs WHERE id = 1 FOR UPDATE")).close();

            other.setAutoCommit(false);
            SQLException busy = assertThrows(SQLException.class,
                    () -> other.execute(Request.of("SELECT id FROM jobs WHERE id = 1 FOR UPDATE NOWAIT")).close());
            // (waiting, it would have got 40001 after the lock timeout)
            if (db.isPostgres()) {
                assertEquals("55P03", busy.getSQLState(), busy.getMessage());
                SQLException aborted = assertThrows(SQLException.class, () -> update(other, "UPDATE jobs SET state = 'x'"));
                assertEquals("25P02", aborted.getSQLState(), aborted.getMessage());
            } else {
                assertEquals(1205, busy.getErrorCode(), busy.getMessage());
            }
            other.rollback();
            holder.commit();
            other.execute(Request.of("SELECT id FROM jobs WHERE id = 1 FOR UPDATE NOWAIT")).close();
            other.commit();
        }
    }
}
