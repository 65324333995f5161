package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.phalanx.testkit.db.TestDatabases;

/**
 * PostgreSQL and MariaDB replicas of one virtual database: engines with row locks, so the
 * scheduler locks tables, lets transactions on different tables (or only reading the same one)
 * run side by side, and breaks a deadlock between transactions with 40001.
 */
class RowLockingEnginesTest {
    private static final String DB = "phalanx_rm_test";
    private RequestManager rm;
    private String pgUrl;
    private String mariaUrl;

    @BeforeEach
    void start() throws SQLException {
        pgUrl = TestDatabases.createPostgres(DB);
        mariaUrl = TestDatabases.createMariaDb(DB);
        List<BackendConfig> backends = List.of(
                BackendConfig.builder("pg", pgUrl).login("postgres", "").build(),
                BackendConfig.builder("maria", mariaUrl).login("root", "").build());
        rm = new RequestManager("rows", RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(5)).analysisCacheSize(100).build(), backends);
        rm.start();
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE a (id INT PRIMARY KEY, v INT NOT NULL)");
            update(s, "CREATE TABLE b (id INT PRIMARY KEY, v INT NOT NULL)");
            update(s, "INSERT INTO a VALUES (1, 0)");
            update(s, "INSERT INTO b VALUES (1, 0)");
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

    @Test
    void transactionsOnDifferentTablesRunSideBySide() throws Exception {
        try (Session t1 = rm.openSession("u"); Session t2 = rm.openSession("u")) {
            t1.setAutoCommit(false);
            update(t1, "UPDATE a SET v = v + 1 WHERE id = 1");
            t2.setAutoCommit(false);
            // would wait for t1 (and time out) if the scheduler locked the whole database
            CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
                try {
                    update(t2, "UPDATE b SET v = v + 1 WHERE id = 1");
                    t2.commit();
                } catch (SQLException e) {
                    throw new RuntimeException(e);
                }
            });
            other.get(4, TimeUnit.SECONDS);
            t1.commit();
        }
        assertEquals(List.of(1, 1), values("a", "b"));
    }

    @Test
    void aDeadlockBetweenTransactionsIsBrokenWith40001() throws Exception {
        try (Session t1 = rm.openSession("u"); Session t2 = rm.openSession("u")) {
            t1.setAutoCommit(false);
            t2.setAutoCommit(false);
            update(t1, "UPDATE a SET v = v + 10 WHERE id = 1");
            update(t2, "UPDATE b SET v = v + 100 WHERE id = 1");
            CompletableFuture<Long> t1WantsB = CompletableFuture.supplyAsync(() -> {
                try {
                    return update(t1, "UPDATE b SET v = v + 10 WHERE id = 1");
                } catch (SQLException e) {
                    throw new RuntimeException(e);
                }
            });
            Thread.sleep(200); // t1 now waits for t2's lock on b
            SQLException e = assertThrows(SQLException.class, () -> update(t2, "UPDATE a SET v = v + 100 WHERE id = 1"));
            assertEquals("40001", e.getSQLState());
            assertEquals(1L, t1WantsB.get(5, TimeUnit.SECONDS), "t1 goes on once t2 is rolled back");
            t1.commit();
        }
        // t2 rolled back everywhere, t1 committed everywhere
        assertEquals(List.of(10, 10), values("a", "b"));
    }

    /**
     * Two transactions copying from the same table (INSERT ... SELECT) hold it shared: the second
     * runs while the first is open, on both engines (MariaDB's INSERT ... SELECT takes shared row
     * locks on its source, which do not conflict either); a write of the source waits for both.
     */
    @Test
    void insertSelectTransactionsFromOneTableRunSideBySide() throws Exception {
        try (Session setup = rm.openSession("u"); Session t1 = rm.openSession("u"); Session t2 = rm.openSession("u");
             Session writer = rm.openSession("u")) {
            update(setup, "CREATE TABLE c (id INT PRIMARY KEY, v INT NOT NULL)");
            t1.setAutoCommit(false);
            update(t1, "INSERT INTO b (id, v) SELECT id + 10, v FROM a");
            t2.setAutoCommit(false);
            // would wait for t1 (and time out with 40001) if reading a locked it exclusively
            CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
                try {
                    update(t2, "INSERT INTO c (id, v) SELECT id + 10, v FROM a");
                } catch (SQLException e) {
                    throw new RuntimeException(e);
                }
            });
            other.get(4, TimeUnit.SECONDS);
            CompletableFuture<Long> write = CompletableFuture.supplyAsync(() -> {
                try {
                    return update(writer, "UPDATE a SET v = v + 5 WHERE id = 1");
                } catch (SQLException e) {
                    throw new RuntimeException(e);
                }
            });
            t1.commit();
            t2.commit();
            assertEquals(1L, write.get(5, TimeUnit.SECONDS));
        }
        assertEquals(List.of(5, 0), values("a", "b"));
        assertEquals(List.of(0, 0), valuesOfRow(11, "b", "c"), "both copies were taken before the update");
    }

    /** v of row 1 of each table, checked identical on both engines. */
    private List<Integer> values(String... tables) throws SQLException {
        return valuesOfRow(1, tables);
    }

    /** v of one row of each table, checked identical on both engines. */
    private List<Integer> valuesOfRow(int id, String... tables) throws SQLException {
        List<Integer> pg = read(pgUrl, "postgres", id, tables);
        List<Integer> maria = read(mariaUrl, "root", id, tables);
        assertEquals(pg, maria, "PostgreSQL and MariaDB replicas differ");
        return pg;
    }

    private static List<Integer> read(String url, String user, int id, String... tables) throws SQLException {
        List<Integer> result = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, user, ""); Statement s = c.createStatement()) {
            for (String t : tables) {
                try (ResultSet rs = s.executeQuery("SELECT v FROM " + t + " WHERE id = " + id)) {
                    assertTrue(rs.next());
                    result.add(rs.getInt(1));
                }
            }
        }
        return result;
    }
}
