package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Locking reads that take shared row locks ({@code FOR SHARE} on PostgreSQL, {@code LOCK IN SHARE
 * MODE} on MariaDB, what Hibernate's PESSIMISTIC_READ sends) behave as on one database: two
 * transactions share-lock the same rows side by side, crosswise too (they waited for each other, and
 * the cross made a cycle refused with 40001; MariaDB's form was not even read, and locked every
 * table), while a write of such a row waits until both have ended.
 */
class SharedLocksIT extends WithEngineCluster {

    @ParameterizedTest
    @CsvSource({"POSTGRESQL, key", "MARIADB, key", "POSTGRESQL, table", "MARIADB, table"})
    void sharedLockingReadsOfOneRowGoSideBySideAndAWriteWaitsForThem(Kind kind, String granularity) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_shared_locks", "lockGranularity=\"" + granularity + "\"");
        String share = kind == Kind.MARIADB ? " LOCK IN SHARE MODE" : " FOR SHARE";
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL)");
            s.executeUpdate("INSERT INTO acc VALUES (1, 100), (2, 200)");
        }
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try (Connection t1 = cluster.connect(); Connection t2 = cluster.connect(); Connection t3 = cluster.connect()) {
            t1.setAutoCommit(false);
            t2.setAutoCommit(false);
            assertEquals(100, balance(threads, t1, 1, share));
            assertEquals(200, balance(threads, t2, 2, share));
            assertEquals(200, balance(threads, t1, 2, share), "the row t2 share-locks, share-locked by t1 too");
            assertEquals(100, balance(threads, t2, 1, share), "and crosswise: no cycle, as on one database");

            Future<Integer> write = threads.submit(() -> {
                try (Statement s = t3.createStatement()) {
                    return s.executeUpdate("UPDATE acc SET bal = bal + 1 WHERE id = 1");
                }
            });
            Thread.sleep(500);
            assertFalse(write.isDone(), "the write waits for the transactions that share-lock its row");
            t1.commit();
            Thread.sleep(200);
            assertFalse(write.isDone(), "and for the last of them");
            t2.commit();
            assertEquals(1, write.get(30, TimeUnit.SECONDS));
        } finally {
            threads.shutdownNow();
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(2, cluster.assertIdentical("acc", "id"));
    }

    /** The balance of an account, read with a shared lock in the connection's transaction; a wait fails the test. */
    private static int balance(ExecutorService threads, Connection c, int id, String share) throws Exception {
        Future<Integer> read = threads.submit(() -> {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT bal FROM acc WHERE id = " + id + share)) {
                rs.next();
                return rs.getInt(1);
            } catch (SQLException e) {
                throw new AssertionError(e.getSQLState() + " " + e.getMessage(), e);
            }
        });
        return read.get(10, TimeUnit.SECONDS);
    }
}
