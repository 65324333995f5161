package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.BackendView;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.testkit.db.TestDatabases;

/**
 * SQLite, PostgreSQL and MariaDB replicas of one virtual database: the backends' agreed outcome
 * of a write is the client's, and a backend is disabled only when it disagrees with the others.
 * Every wait policy, with and without a recovery log (a write then runs as a different unit).
 */
class MixedEngineWritesTest {
    private static final String DB = "phalanx_rm_mixed_writes";
    private static final Map<String, BackendState> ALL_ENABLED = Map.of("lite", BackendState.ENABLED,
            "pg", BackendState.ENABLED, "maria", BackendState.ENABLED);

    @TempDir
    Path dir;
    private RequestManager rm;
    private final Map<String, String> urls = new LinkedHashMap<>();

    private void start(WaitPolicy policy, boolean log) throws SQLException {
        urls.put("lite", "jdbc:sqlite:" + dir.resolve("lite.db"));
        urls.put("pg", TestDatabases.createPostgres(DB));
        urls.put("maria", TestDatabases.createMariaDb(DB));
        List<BackendConfig> backends = List.of(
                BackendConfig.builder("lite", urls.get("lite")).build(),
                BackendConfig.builder("pg", urls.get("pg")).login("postgres", "").build(),
                BackendConfig.builder("maria", urls.get("maria")).login("root", "").build());
        RequestManagerConfig.Builder config = RequestManagerConfig.builder().waitPolicy(policy)
                .lockTimeout(Duration.ofSeconds(10));
        if (log) {
            config.recovery(new RecoveryConfig(new FileRecoveryLog(dir.resolve("log")), true));
        }
        rm = new RequestManager("mixed", config.build(), backends);
        rm.start();
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, v INT CHECK (v >= 0))");
            update(s, "INSERT INTO t VALUES (1, 10, 0, 1)");
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

    private static long update(Session s, String sql) throws SQLException {
        try (Result r = s.execute(Request.of(sql))) {
            return ((Result.UpdateCount) r).count();
        }
    }

    private Map<String, BackendState> states() {
        return rm.backends().stream().collect(Collectors.toMap(BackendView::name, BackendView::state));
    }

    /** The table's rows on one backend, read directly. */
    private String rows(String backend) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (Connection c = backend.equals("lite") ? DriverManager.getConnection(urls.get(backend))
                : TestDatabases.connect(urls.get(backend));
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, a, b, v FROM t ORDER BY id")) {
            while (rs.next()) {
                sb.append(rs.getInt(1)).append(':').append(rs.getObject(2)).append(':').append(rs.getInt(3))
                        .append(':').append(rs.getInt(4)).append(' ');
            }
        }
        return sb.toString().trim();
    }

    private void assertRowsEverywhere(String expected) throws SQLException {
        for (String b : urls.keySet()) {
            assertEquals(expected, rows(b), "rows on " + b);
        }
    }

    /**
     * Division by zero (SQLite answers NULL, PostgreSQL and MariaDB raise 22012), a unique and a
     * check violation: the client gets the error, nothing is disabled, nothing changed anywhere.
     */
    @ParameterizedTest
    @CsvSource({"FIRST, true", "MAJORITY, true", "ALL, true", "FIRST, false", "ALL, false"})
    void errorsTheEnginesAgreeOnAreTheClientsAndDisableNothing(WaitPolicy policy, boolean log) throws Exception {
        start(policy, log);
        try (Session s = rm.openSession("u")) {
            SQLException division = assertThrows(SQLException.class, () -> update(s, "UPDATE t SET a = a / b"));
            assertEquals("22", division.getSQLState().substring(0, 2), division.getMessage());
            SQLException unique = assertThrows(SQLException.class, () -> update(s, "INSERT INTO t VALUES (1, 0, 0, 0)"));
            assertEquals("23", unique.getSQLState().substring(0, 2), unique.getMessage());
            SQLException check = assertThrows(SQLException.class, () -> update(s, "INSERT INTO t VALUES (2, 0, 0, -1)"));
            assertEquals("23", check.getSQLState().substring(0, 2), check.getMessage());
            assertEquals(1, update(s, "UPDATE t SET v = v + 1 WHERE id = 1"), "the vdb goes on");

            s.setAutoCommit(false);
            update(s, "INSERT INTO t VALUES (3, 3, 3, 3)");
            assertThrows(SQLException.class, () -> update(s, "UPDATE t SET a = a / b WHERE id = 1"));
            assertThrows(SQLException.class, s::commit, "the transaction cannot commit part of its work");
            s.rollback();
            s.setAutoCommit(true);
        }
        assertEquals(ALL_ENABLED, states());
        assertRowsEverywhere("1:10:0:2");
    }

    /** A statement that fails on exactly one backend (its data made to differ on purpose) disables only that one. */
    @ParameterizedTest
    @CsvSource({"FIRST, true", "ALL, false"})
    void aBackendAloneInRefusingAWriteIsDisabled(WaitPolicy policy, boolean log) throws Exception {
        start(policy, log);
        try (Connection c = TestDatabases.connect(urls.get("maria")); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO t VALUES (7, 0, 0, 0)"); // behind the controller's back
        }
        try (Session s = rm.openSession("u")) {
            assertEquals(1, update(s, "INSERT INTO t VALUES (7, 7, 7, 7)"));
        }
        assertEquals(BackendState.DISABLED, states().get("maria"));
        assertTrue(rm.backends().stream().filter(b -> b.name().equals("maria")).findFirst().orElseThrow()
                .disabledReason().contains("23"), "the reason names the refusal");
        assertEquals(BackendState.ENABLED, states().get("lite"));
        assertEquals(BackendState.ENABLED, states().get("pg"));
        assertEquals("1:10:0:1 7:7:7:7", rowsOnceCommitted("lite", "1:10:0:1 7:7:7:7"));
        assertEquals("1:10:0:1 7:7:7:7", rowsOnceCommitted("pg", "1:10:0:1 7:7:7:7"));
    }

    /**
     * The rows on one backend once they are {@code expected}, or as they are after 10 s: under the
     * FIRST policy the client is answered once one backend committed, the others commit right after.
     */
    private String rowsOnceCommitted(String backend, String expected) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        String rows = rows(backend);
        while (!rows.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            rows = rows(backend);
        }
        return rows;
    }
}
