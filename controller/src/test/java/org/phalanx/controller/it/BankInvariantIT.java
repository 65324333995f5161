package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.db.SqliteFiles;

/** Done-when 3: concurrent transfers keep the total, and every acknowledged transfer is everywhere. */
class BankInvariantIT {
    private static final int ACCOUNTS = 100;
    private static final int CLIENTS = 16;
    private static final int TRANSFERS_PER_CLIENT = 40;
    private static final long INITIAL = 1_000;

    @TempDir
    Path dir;

    @Test
    void transfersKeepTheTotalOnEveryBackend() throws Exception {
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "first", "b1", "b2", "b3")) {
            run(cluster::connect, acknowledged);
        }
        SqliteFiles files = new SqliteFiles(dir, "b1", "b2", "b3");
        for (String b : files.names()) {
            assertBalancesExplained(files.direct(b), b, acknowledged);
        }
        PhalanxClusterChecks.identical(dir, files.names(), "accounts", "id");
        PhalanxClusterChecks.identical(dir, files.names(), "transfers", "id");
    }

    /**
     * Creates the accounts, runs the concurrent transfers and checks the total through the
     * virtual database; fills {@code acknowledged} with the committed transfers.
     */
    static void run(ConnectionSource source, Set<String> acknowledged) throws Exception {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance BIGINT NOT NULL)");
            s.executeUpdate("CREATE TABLE transfers (id TEXT PRIMARY KEY, src INTEGER, dst INTEGER, amount BIGINT)");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO accounts VALUES (?, ?)")) {
                for (int i = 0; i < ACCOUNTS; i++) {
                    ps.setInt(1, i);
                    ps.setLong(2, INITIAL);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        }
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> futures = new ArrayList<>();
        for (int client = 0; client < CLIENTS; client++) {
            int id = client;
            futures.add(pool.submit(() -> {
                transfer(source, id, acknowledged);
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT SUM(balance) FROM accounts")) {
            rs.next();
            assertEquals(ACCOUNTS * INITIAL, rs.getLong(1), "total seen through the virtual database");
        }
        assertTrue(acknowledged.size() > CLIENTS * TRANSFERS_PER_CLIENT / 2, "most transfers committed");
    }

    /** On one backend read directly (closed afterwards): the total, every committed transfer, each balance explained. */
    static void assertBalancesExplained(Connection direct, String b, Set<String> acknowledged) throws SQLException {
        try (Connection c = direct; Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT SUM(balance) FROM accounts")) {
                rs.next();
                assertEquals(ACCOUNTS * INITIAL, rs.getLong(1), "total on " + b);
            }
            Set<String> stored = new HashSet<>();
            try (ResultSet rs = s.executeQuery("SELECT id FROM transfers")) {
                while (rs.next()) {
                    stored.add(rs.getString(1));
                }
            }
            assertEquals(acknowledged, stored, "committed transfers on " + b);
            // each balance is explained by the transfers log
            try (ResultSet rs = s.executeQuery("SELECT a.id, a.balance, "
                    + "(SELECT COALESCE(SUM(amount), 0) FROM transfers WHERE dst = a.id) - "
                    + "(SELECT COALESCE(SUM(amount), 0) FROM transfers WHERE src = a.id) FROM accounts a")) {
                while (rs.next()) {
                    assertEquals(INITIAL + rs.getLong(3), rs.getLong(2), "account " + rs.getInt(1) + " on " + b);
                }
            }
        }
    }

    private static void transfer(ConnectionSource source, int client, Set<String> acknowledged) throws SQLException {
        Random random = new Random(42 + client);
        try (Connection c = source.connect()) {
            c.setAutoCommit(false);
            for (int i = 0; i < TRANSFERS_PER_CLIENT; i++) {
                int src = random.nextInt(ACCOUNTS);
                int dst = (src + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                long amount = 1 + random.nextInt(50);
                String id = client + "-" + i;
                try (PreparedStatement debit = c.prepareStatement("UPDATE accounts SET balance = balance - ? WHERE id = ?");
                     PreparedStatement credit = c.prepareStatement("UPDATE accounts SET balance = balance + ? WHERE id = ?");
                     PreparedStatement log = c.prepareStatement("INSERT INTO transfers VALUES (?, ?, ?, ?)")) {
                    debit.setLong(1, amount);
                    debit.setInt(2, src);
                    debit.executeUpdate();
                    credit.setLong(1, amount);
                    credit.setInt(2, dst);
                    credit.executeUpdate();
                    log.setString(1, id);
                    log.setInt(2, src);
                    log.setInt(3, dst);
                    log.setLong(4, amount);
                    log.executeUpdate();
                    if (random.nextInt(10) == 0) {
                        c.rollback(); // an abandoned transfer must leave no trace
                    } else {
                        c.commit();
                        acknowledged.add(id);
                    }
                } catch (SQLException e) {
                    if (!"40001".equals(e.getSQLState())) {
                        throw e;
                    }
                    c.rollback(); // refused by the scheduler: not acknowledged, retried by nobody
                }
            }
        }
    }
}
