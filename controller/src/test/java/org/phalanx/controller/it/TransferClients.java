package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bank workload running until stopped while a test does something else: each client reads a
 * balance, then moves money between two accounts and notes the transfer in one transaction,
 * counting what was acknowledged, what a lock cycle refused and what failed (the test decides
 * whether failures are expected).
 */
final class TransferClients {
    static final long INITIAL = 1_000;

    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    final AtomicLong done = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    /** Transfers refused with 40001 (a lock cycle between two of them, as on any database): not errors. */
    final AtomicLong conflicts = new AtomicLong();
    /** The first failures' messages, for the test's report. */
    final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final int accounts;
    private final ConnectionSource source;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService pool;
    private final List<Future<?>> clients = new ArrayList<>();

    /** Creates the accounts table (each holding {@link #INITIAL}) and the transfers log. */
    static void createAccounts(Connection c, int accounts) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance BIGINT NOT NULL)");
            s.executeUpdate("CREATE TABLE transfers (id VARCHAR(40) PRIMARY KEY, src INTEGER, dst INTEGER, amount BIGINT)");
            for (int i = 0; i < accounts; i++) {
                s.executeUpdate("INSERT INTO accounts VALUES (" + i + ", " + INITIAL + ")");
            }
        }
    }

    TransferClients(int clients, int accounts, ConnectionSource source) {
        this.accounts = accounts;
        this.source = source;
        this.pool = Executors.newFixedThreadPool(clients);
        for (int n = 0; n < clients; n++) {
            int client = n;
            this.clients.add(pool.submit(() -> run(client)));
        }
    }

    private Void run(int client) throws SQLException {
        Random random = new Random(client);
        try (Connection c = source.connect();
             PreparedStatement read = c.prepareStatement("SELECT balance FROM accounts WHERE id = ?");
             PreparedStatement move = c.prepareStatement("UPDATE accounts SET balance = balance + ? WHERE id = ?");
             PreparedStatement note = c.prepareStatement("INSERT INTO transfers VALUES (?, ?, ?, ?)")) {
            for (int i = 0; !stop.get(); i++) {
                String id = client + "-" + i;
                int src = random.nextInt(accounts);
                int dst = (src + 1 + random.nextInt(accounts - 1)) % accounts;
                int amount = 1 + random.nextInt(20);
                try {
                    read.setInt(1, src);
                    try (ResultSet rs = read.executeQuery()) {
                        rs.next();
                    }
                    c.setAutoCommit(false);
                    move.setInt(1, -amount);
                    move.setInt(2, src);
                    move.executeUpdate();
                    move.setInt(1, amount);
                    move.setInt(2, dst);
                    move.executeUpdate();
                    note.setString(1, id);
                    note.setInt(2, src);
                    note.setInt(3, dst);
                    note.setInt(4, amount);
                    note.executeUpdate();
                    c.commit();
                    acknowledged.add(id);
                    done.incrementAndGet();
                } catch (SQLException e) {
                    if ("40001".equals(e.getSQLState())) {
                        conflicts.incrementAndGet();
                    } else if (errors.incrementAndGet() <= 5) {
                        failures.add(e.getSQLState() + " " + e.getMessage());
                    }
                    try {
                        c.rollback();
                    } catch (SQLException ignored) {
                        // gone with the connection
                    }
                } finally {
                    c.setAutoCommit(true);
                }
            }
        }
        return null;
    }

    /** Progress over a few seconds: the transfers go on. */
    void assertGoesOn() throws InterruptedException {
        long before = done.get();
        Thread.sleep(3000);
        assertTrue(done.get() - before >= 10, "transfers went on: " + (done.get() - before) + " in 3 s");
    }

    void stop() throws Exception {
        stop.set(true);
        for (Future<?> f : clients) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();
    }
}
