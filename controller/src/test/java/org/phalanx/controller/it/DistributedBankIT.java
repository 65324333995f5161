package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A distributed virtual database under a bank workload (issue 19, done-when 1): three controller
 * processes with two SQLite backends each, 16 clients transferring money through a multi-host URL
 * while the primary is killed (kill -9), later a follower, and both restarted. Afterwards every
 * acknowledged transfer is there, the total is exact, and all six replicas are identical.
 */
class DistributedBankIT {
    private static final int ACCOUNTS = 50;
    private static final long BALANCE = 1_000;
    private static final int CLIENTS = 16;
    private static final int BACKENDS = 2;

    @TempDir
    Path dir;
    private ControllerGroup group;

    @AfterEach
    void stop() {
        if (group != null) {
            group.close();
        }
    }

    @Test
    void everyAcknowledgedTransferSurvivesKillingThePrimaryAndAFollower() throws Exception {
        group = new ControllerGroup(dir, BACKENDS, false, false, false);
        group.startAll();
        int first = group.primary(60);
        assertTrue(first >= 0, "no primary was elected" + group.outputs());
        try (Connection c = DriverManager.getConnection(group.url()); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE acc (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)");
            s.executeUpdate("CREATE TABLE transfers (id INTEGER PRIMARY KEY, src INTEGER, dst INTEGER, amount INTEGER)");
            for (int id = 1; id <= ACCOUNTS; id++) {
                s.executeUpdate("INSERT INTO acc VALUES (" + id + ", " + BALANCE + ")");
            }
        }
        Bank bank = new Bank(group.url());
        bank.start();
        try {
            Thread.sleep(3_000);
            int primary = group.primary(10);
            group.kill(primary);
            Thread.sleep(6_000);
            group.start(primary);
            Thread.sleep(4_000);
            int follower = (group.primary(10) + 1) % group.size();
            group.kill(follower);
            Thread.sleep(3_000);
            group.start(follower);
            Thread.sleep(4_000);
        } finally {
            bank.stop();
        }
        assertTrue(bank.unexpected.isEmpty(), "unexpected errors: " + bank.unexpected + group.outputs());
        assertTrue(bank.acknowledged.size() > 100, "too few transfers went through: " + bank.acknowledged.size());
        try (Connection c = DriverManager.getConnection(group.url())) {
            assertEquals(ACCOUNTS * BALANCE, one(c, "SELECT SUM(bal) FROM acc"), "the total is exact");
            Set<Long> present = new java.util.HashSet<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM transfers")) {
                while (rs.next()) {
                    present.add(rs.getLong(1));
                }
            }
            List<Long> missing = new ArrayList<>(bank.acknowledged);
            missing.removeAll(present);
            assertEquals(List.of(), missing, "acknowledged transfers missing");
        }
        assertReplicasIdentical();
        System.out.printf("distributed bank: %d transfers acknowledged, %d unknown outcomes, %d rolled back by a"
                        + " failover; transfer latency p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                bank.acknowledged.size(), bank.unknown.size(), bank.rolledBack.size(), bank.percentile(50),
                bank.percentile(99), bank.percentile(100));
    }

    /** All six SQLite files hold the same rows, once the followers have caught up. */
    private void assertReplicasIdentical() throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<String> contents = List.of();
        while (System.nanoTime() < end) {
            contents = new ArrayList<>();
            for (int i = 0; i < group.size(); i++) {
                for (Path file : group.backendFiles(i, BACKENDS)) {
                    contents.add(content(file));
                }
            }
            if (new java.util.HashSet<>(contents).size() == 1) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("replicas differ: " + contents + group.outputs());
    }

    private static String content(Path sqlite) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite + "?open_mode=1");
             Statement s = c.createStatement()) {
            StringBuilder b = new StringBuilder();
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(id), SUM(src * 7 + dst * 13 + amount) FROM transfers")) {
                rs.next();
                b.append("transfers ").append(rs.getLong(1)).append('/').append(rs.getLong(2)).append('/')
                        .append(rs.getLong(3));
            }
            try (ResultSet rs = s.executeQuery("SELECT group_concat(bal, ',') FROM (SELECT bal FROM acc ORDER BY id)")) {
                rs.next();
                b.append(" balances ").append(Integer.toHexString(rs.getString(1).hashCode()));
            }
            return b.toString();
        }
    }

    /** 16 clients moving money, each transfer one transaction that also records its id. */
    private static final class Bank {
        final String url;
        final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        final Set<Long> unknown = ConcurrentHashMap.newKeySet();
        final Set<Long> rolledBack = ConcurrentHashMap.newKeySet();
        final List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
        final List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        final AtomicBoolean stop = new AtomicBoolean();
        final List<Thread> threads = new ArrayList<>();

        Bank(String url) {
            this.url = url;
        }

        void start() {
            for (int t = 0; t < CLIENTS; t++) {
                int client = t;
                Thread thread = new Thread(() -> run(client), "bank-" + t);
                threads.add(thread);
                thread.start();
            }
        }

        void stop() throws InterruptedException {
            stop.set(true);
            for (Thread t : threads) {
                t.join(60_000);
            }
        }

        double percentile(int p) {
            List<Long> sorted = new ArrayList<>(latencies);
            Collections.sort(sorted);
            if (sorted.isEmpty()) {
                return 0;
            }
            int i = Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1);
            return sorted.get(Math.max(0, i)) / 1e6;
        }

        private void run(int client) {
            long seq = 0;
            try (Connection c = DriverManager.getConnection(url)) {
                c.setAutoCommit(false);
                while (!stop.get()) {
                    long id = client * 1_000_000L + ++seq;
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    int src = r.nextInt(1, ACCOUNTS + 1);
                    int dst = r.nextInt(1, ACCOUNTS + 1);
                    int amount = r.nextInt(1, 10);
                    long started = System.nanoTime();
                    boolean committing = false;
                    try {
                        move(c, src, -amount);
                        move(c, dst, amount);
                        try (PreparedStatement ps = c.prepareStatement("INSERT INTO transfers VALUES (?, ?, ?, ?)")) {
                            ps.setLong(1, id);
                            ps.setInt(2, src);
                            ps.setInt(3, dst);
                            ps.setInt(4, amount);
                            ps.executeUpdate();
                        }
                        committing = true;
                        c.commit();
                        acknowledged.add(id);
                        latencies.add(System.nanoTime() - started);
                    } catch (SQLException e) {
                        rollbackQuietly(c);
                        String state = e.getSQLState() == null ? "" : e.getSQLState();
                        if (committing && state.startsWith("08")) {
                            unknown.add(id); // the outcome of the commit is unknown: the check allows either
                        } else if (state.startsWith("40") || state.startsWith("08")) {
                            rolledBack.add(id);
                        } else {
                            unexpected.add(state + " " + e.getMessage());
                        }
                    }
                }
            } catch (SQLException e) {
                unexpected.add("client " + client + " lost its connection: " + e.getSQLState() + " " + e.getMessage());
            }
        }

        private static void move(Connection c, int account, int amount) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement("UPDATE acc SET bal = bal + ? WHERE id = ?")) {
                ps.setInt(1, amount);
                ps.setInt(2, account);
                ps.executeUpdate();
            }
        }

        private static void rollbackQuietly(Connection c) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the failover already ended the transaction
            }
        }
    }
}
