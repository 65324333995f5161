package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Writes of their own rows beside schema changes of other tables, and beside statements the parser
 * cannot read (which count as schema changes): as on one PostgreSQL, none fails. Each such change
 * made every row-level write that had waited meanwhile lock its whole table while holding its rows,
 * so two of them deadlocked in the controller and one got 40001 (an outside tester's findings: 104
 * in 12 s beside a migration, 119 in 15 s beside data-modifying CTEs; none directly).
 */
class WritesBesideSchemaChangesIT extends WithEngineCluster {
    private static final int CLIENTS = 4;

    @Test
    void ddlOfOtherTablesFailsNoTransaction() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_unrelated_ddl", "");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE acct (id INTEGER PRIMARY KEY, bal BIGINT NOT NULL)");
            for (int i = 0; i < CLIENTS; i++) {
                s.executeUpdate("INSERT INTO acct VALUES (" + i + ", 0)");
            }
        }
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger committed = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            int id = i;
            clients.add(CompletableFuture.runAsync(() -> {
                try (Connection c = cluster.connect();
                     PreparedStatement lock = c.prepareStatement("SELECT bal FROM acct WHERE id = ? FOR UPDATE");
                     PreparedStatement update = c.prepareStatement("UPDATE acct SET bal = ? WHERE id = ?")) {
                    c.setAutoCommit(false);
                    while (running.get()) {
                        try {
                            lock.setInt(1, id);
                            long bal;
                            try (ResultSet rs = lock.executeQuery()) {
                                rs.next();
                                bal = rs.getLong(1);
                            }
                            update.setLong(1, bal + 1);
                            update.setInt(2, id);
                            update.executeUpdate();
                            c.commit();
                            committed.incrementAndGet();
                        } catch (SQLException e) {
                            failures.add(e.getSQLState() + " " + e.getMessage());
                            c.rollback();
                        }
                    }
                } catch (SQLException e) {
                    throw new CompletionException(e);
                }
            }));
        }
        try (Connection ddl = cluster.connect(); Statement s = ddl.createStatement()) {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            for (int n = 0; System.nanoTime() < end; n++) {
                s.executeUpdate("CREATE TABLE other" + n + " (id INTEGER PRIMARY KEY)");
                s.executeUpdate("INSERT INTO other" + n + " VALUES (1)");
                s.executeUpdate("DROP TABLE other" + n);
            }
        } finally {
            running.set(false);
            CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        }
        assertEquals(List.of(), List.copyOf(failures), "failed transactions");
        assertTrue(committed.get() > 0);
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("acct", "id");
    }

    @Test
    void insertsBesideDataModifyingCtesFailNone() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_cte_inserts", "");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE src (id BIGINT PRIMARY KEY, k INTEGER, v TEXT)");
            s.executeUpdate("CREATE TABLE archive (id BIGINT PRIMARY KEY, k INTEGER, v TEXT)");
        }
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> clients = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
        for (int i = 0; i < CLIENTS; i++) {
            int client = i;
            clients.add(CompletableFuture.runAsync(() -> {
                try (Connection c = cluster.connect();
                     PreparedStatement insert = c.prepareStatement("INSERT INTO src (id, k, v) VALUES (?, ?, 'x')");
                     PreparedStatement archive = c.prepareStatement(
                             "WITH d AS (DELETE FROM src WHERE id = ? RETURNING *) INSERT INTO archive SELECT * FROM d")) {
                    for (long n = 0; System.nanoTime() < end; n++) {
                        long id = n * CLIENTS + client;
                        try {
                            insert.setLong(1, id);
                            insert.setInt(2, client);
                            insert.executeUpdate();
                            archive.setLong(1, id);
                            archive.executeUpdate();
                        } catch (SQLException e) {
                            failures.add(e.getSQLState() + " " + e.getMessage());
                        }
                    }
                } catch (SQLException e) {
                    throw new CompletionException(e);
                }
            }));
        }
        CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertEquals(List.of(), List.copyOf(failures), "failed statements");
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("archive", "id");
    }
}
