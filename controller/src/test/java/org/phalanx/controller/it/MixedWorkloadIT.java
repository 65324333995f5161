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
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Done-when 2: 32 clients, mixed workload, three SQLite backends, identical afterwards. */
class MixedWorkloadIT {
    static final int CLIENTS = 32;
    static final int OPERATIONS = 60;

    @TempDir
    Path dir;

    @Test
    void thirtyTwoClientsLeaveEveryBackendIdentical() throws Exception {
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "first", "b1", "b2", "b3")) {
            run(cluster::connect);
        }
        // controller stopped: every queued write has been applied everywhere
        PhalanxClusterChecks.identical(dir, List.of("b1", "b2", "b3"), "items", "id");
        PhalanxClusterChecks.identical(dir, List.of("b1", "b2", "b3"), "events", "id");
    }

    /**
     * The whole workload: creates the tables, runs every client to the end, checks they read data
     * (also run on SQLite + PostgreSQL + MariaDB by {@link HeterogeneousWorkloadIT}).
     */
    static void run(ConnectionSource source) throws Exception {
        createTables(source);
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<Integer>> results = new ArrayList<>();
        for (int client = 0; client < CLIENTS; client++) {
            int id = client;
            results.add(pool.submit(() -> runClient(source, id)));
        }
        int reads = 0;
        for (Future<Integer> f : results) {
            reads += f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertTrue(reads > CLIENTS * OPERATIONS / 10, "the workload read data: " + reads);
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM items")) {
            rs.next();
            assertTrue(rs.getInt(1) > 0);
        }
    }

    /** Tables the workload uses; {@link #runClient} expects them created. */
    static void createTables(ConnectionSource source) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE items (id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, name TEXT,"
                    + " qty INTEGER NOT NULL, price DECIMAL(10,2), updated TIMESTAMP)");
            s.executeUpdate("CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, owner INTEGER, what TEXT,"
                    + " at TIMESTAMP DEFAULT '2000-01-01')");
        }
    }

    /** One client's mix of inserts, conflicting updates, deletes, reads and transactions; returns its reads. */
    static int runClient(ConnectionSource source, int client) throws SQLException {
        Random random = new Random(client);
        int reads = 0;
        int nextKey = client * 1_000_000;
        try (Connection c = source.connect()) {
            for (int op = 0; op < OPERATIONS; op++) {
                int choice = random.nextInt(100);
                if (choice < 30) {
                    try (PreparedStatement ps = c.prepareStatement(
                            "INSERT INTO items (id, owner, name, qty, price, updated) VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP)")) {
                        ps.setInt(1, nextKey++);
                        ps.setInt(2, client);
                        ps.setString(3, "item-" + op);
                        ps.setInt(4, random.nextInt(100));
                        ps.setBigDecimal(5, new java.math.BigDecimal(random.nextInt(100000)).movePointLeft(2));
                        ps.executeUpdate();
                    }
                } else if (choice < 45) {
                    // updates every client's rows: conflicts between clients on purpose
                    try (PreparedStatement ps = c.prepareStatement("UPDATE items SET qty = qty + 1, updated = NOW() WHERE qty % 7 = ?")) {
                        ps.setInt(1, random.nextInt(7));
                        ps.executeUpdate();
                    }
                } else if (choice < 52) {
                    try (PreparedStatement ps = c.prepareStatement("DELETE FROM items WHERE owner = ? AND qty > ?")) {
                        ps.setInt(1, random.nextInt(CLIENTS));
                        ps.setInt(2, 90);
                        ps.executeUpdate();
                    }
                } else if (choice < 80) {
                    try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*), SUM(qty) FROM items WHERE owner = ?")) {
                        ps.setInt(1, client);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            reads++;
                        }
                    }
                } else {
                    boolean commit = choice < 93;
                    c.setAutoCommit(false);
                    try (PreparedStatement ins = c.prepareStatement("INSERT INTO events (owner, what) VALUES (?, ?)");
                         PreparedStatement upd = c.prepareStatement("UPDATE items SET name = ? WHERE owner = ?")) {
                        ins.setInt(1, client);
                        ins.setString(2, commit ? "commit" : "rollback");
                        ins.executeUpdate();
                        upd.setString(1, "tx-" + op);
                        upd.setInt(2, client);
                        upd.executeUpdate();
                        try (Statement s = c.createStatement();
                             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM events WHERE owner = " + client)) {
                            rs.next();
                            reads++;
                        }
                        if (commit) {
                            c.commit();
                        } else {
                            c.rollback();
                        }
                    } finally {
                        c.setAutoCommit(true);
                    }
                }
            }
        }
        return reads;
    }
}
