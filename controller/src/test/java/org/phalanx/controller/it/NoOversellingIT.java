package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.db.SqliteFiles;
import org.phalanx.testkit.jdbc.FaultyDriver;

/**
 * Rule 3 of the design: the last items are never oversold, with the two safe ways to buy on
 * SQLite: a conditional update, and read-then-write inside BEGIN IMMEDIATE. One backend is slow
 * (wait policy first), so reads could see stale data if the scheduler let them.
 */
class NoOversellingIT {
    private static final int STOCK = 25;
    private static final int BUYERS = 16;

    @TempDir
    Path dir;

    @Test
    void theLastItemsAreSoldExactlyOnce() throws Exception {
        AtomicInteger sold = new AtomicInteger();
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "first", "b1", "b2", "b3")) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE items (id INTEGER PRIMARY KEY, stock INTEGER NOT NULL)");
                s.executeUpdate("CREATE TABLE orders (id INTEGER PRIMARY KEY AUTOINCREMENT, buyer INTEGER, item INTEGER)");
                s.executeUpdate("INSERT INTO items VALUES (1, " + STOCK + ")");
            }
            FaultyDriver.fault("b3").delayMillis = 5;
            ExecutorService pool = Executors.newFixedThreadPool(BUYERS);
            List<Future<?>> futures = new ArrayList<>();
            for (int buyer = 0; buyer < BUYERS; buyer++) {
                int id = buyer;
                futures.add(pool.submit(() -> {
                    buy(cluster, id, sold);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
            pool.shutdown();
        }
        assertEquals(STOCK, sold.get(), "acknowledged purchases");
        SqliteFiles files = new SqliteFiles(dir, "b1", "b2", "b3");
        for (String b : files.names()) {
            try (Connection c = files.direct(b); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT stock FROM items WHERE id = 1")) {
                    rs.next();
                    assertEquals(0, rs.getInt(1), "stock on " + b);
                }
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
                    rs.next();
                    assertEquals(STOCK, rs.getInt(1), "orders on " + b);
                }
            }
        }
        PhalanxClusterChecks.identical(dir, files.names(), "orders", "id");
    }

    /** Buys until the item is sold out; even buyers read then write, odd ones update conditionally. */
    private static void buy(PhalanxCluster cluster, int buyer, AtomicInteger sold) throws SQLException {
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            while (true) {
                boolean bought;
                if (buyer % 2 == 0) {
                    s.execute("BEGIN IMMEDIATE");
                    int stock;
                    try (ResultSet rs = s.executeQuery("SELECT stock FROM items WHERE id = 1")) {
                        rs.next();
                        stock = rs.getInt(1);
                    }
                    bought = stock > 0;
                    if (bought) {
                        s.executeUpdate("UPDATE items SET stock = " + (stock - 1) + " WHERE id = 1");
                        s.executeUpdate("INSERT INTO orders (buyer, item) VALUES (" + buyer + ", 1)");
                    }
                    s.execute(bought ? "COMMIT" : "ROLLBACK");
                } else {
                    c.setAutoCommit(false);
                    try (PreparedStatement take = c.prepareStatement("UPDATE items SET stock = stock - 1 WHERE id = 1 AND stock > 0")) {
                        bought = take.executeUpdate() == 1;
                    }
                    if (bought) {
                        s.executeUpdate("INSERT INTO orders (buyer, item) VALUES (" + buyer + ", 1)");
                        c.commit();
                    } else {
                        c.rollback();
                    }
                    c.setAutoCommit(true);
                }
                if (!bought) {
                    return;
                }
                sold.incrementAndGet();
            }
        }
    }
}
