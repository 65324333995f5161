package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.BackendView;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.testkit.db.TestDatabases;

/**
 * SQLite, PostgreSQL and MariaDB replicas of one virtual database: a read's error never disables a
 * backend. A read one engine alone can run is answered by it; one every engine refuses is the
 * client's error.
 */
class MixedEngineReadsTest {
    private static final String DB = "phalanx_rm_mixed_reads";
    private RequestManager rm;

    @BeforeEach
    void start(@TempDir Path dir) throws SQLException {
        List<BackendConfig> backends = List.of(
                BackendConfig.builder("lite", "jdbc:sqlite:" + dir.resolve("lite.db")).build(),
                BackendConfig.builder("pg", TestDatabases.createPostgres(DB)).login("postgres", "").build(),
                BackendConfig.builder("maria", TestDatabases.createMariaDb(DB)).login("root", "").build());
        rm = new RequestManager("mixed", RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(10)).build(), backends);
        rm.start();
        try (Session s = rm.openSession("u")) {
            s.execute(Request.of("CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)")).close();
            s.execute(Request.of("INSERT INTO t VALUES (1, 10)")).close();
        }
    }

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
            TestDatabases.dropPostgres(DB);
            TestDatabases.dropMariaDb(DB);
        }
    }

    private Map<String, BackendState> states() {
        return rm.backends().stream().collect(Collectors.toMap(BackendView::name, BackendView::state));
    }

    private static final Map<String, BackendState> ALL_ENABLED = Map.of("lite", BackendState.ENABLED,
            "pg", BackendState.ENABLED, "maria", BackendState.ENABLED);

    @Test
    void aReadOnlyOneEngineCanRunIsAnsweredAndDisablesNothing() throws Exception {
        try (Session s = rm.openSession("u")) {
            // typeof() is SQLite's own: PostgreSQL and MariaDB refuse it (42883, 42000)
            for (int i = 0; i < 9; i++) { // round robin starts it on each backend in turn
                try (Result r = s.execute(Request.of("SELECT typeof(v) FROM t WHERE id = 1"))) {
                    ResultSet rs = ((Result.Rows) r).resultSet();
                    rs.next();
                    assertEquals("integer", rs.getString(1));
                }
            }
        }
        assertEquals(ALL_ENABLED, states());
    }

    @Test
    void aReadEveryEngineRefusesIsTheClientsErrorAndDisablesNothing() throws Exception {
        try (Session s = rm.openSession("u")) {
            for (int i = 0; i < 6; i++) {
                assertThrows(SQLException.class, () -> s.execute(Request.of("SELECT nope FROM t")).close());
                assertThrows(SQLException.class, () -> s.execute(Request.of("SELECT v / 'x' FROM no_such_table"))
                        .close());
            }
            try (Result r = s.execute(Request.of("SELECT v FROM t WHERE id = 1"))) {
                ResultSet rs = ((Result.Rows) r).resultSet();
                rs.next();
                assertEquals(10, rs.getInt(1));
            }
        }
        assertEquals(ALL_ENABLED, states());
    }
}
