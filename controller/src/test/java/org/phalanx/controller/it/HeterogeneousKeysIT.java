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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heterogeneous done-when 3: portable DDL with an auto-generated key creates working tables on
 * SQLite, PostgreSQL and MariaDB; inserted rows get identical keys on every replica, returned by
 * getGeneratedKeys(), also after rolled-back inserts (which advance PostgreSQL's and MariaDB's
 * counters but not SQLite's) and with concurrent inserters.
 */
class HeterogeneousKeysIT {
    private static final int INSERTERS = 8;
    private static final int INSERTS = 25;

    @TempDir
    Path dir;

    @Test
    void keysAreChosenOnceAndStoredEverywhere() throws Exception {
        try (HeterogeneousCluster cluster = new HeterogeneousCluster(dir, "phalanx_hetero_keys", "first")) {
            Set<Long> committed = new ConcurrentSkipListSet<>();
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE orders (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                        + " customer VARCHAR(20) NOT NULL, amount DECIMAL(8,2))");
                assertEquals(List.of(1L), insert(c, "first"));
                assertEquals(List.of(2L), insert(c, "second"));

                c.setAutoCommit(false);
                assertEquals(List.of(3L), insert(c, "rolled back"));
                try (ResultSet rs = s.executeQuery("SELECT customer FROM orders WHERE id = 3")) {
                    assertTrue(rs.next(), "the transaction reads its own insert by its key");
                }
                assertEquals(List.of(4L), insert(c, "rolled back too"));
                c.rollback();
                c.setAutoCommit(true);

                // the rolled-back keys are not reused: every engine would have its own idea of the next one
                assertEquals(List.of(5L), insert(c, "after the rollback"));
                try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO orders (customer, amount) VALUES ('multi', 1.5), ('row', 2)",
                        Statement.RETURN_GENERATED_KEYS)) {
                    assertEquals(2, ps.executeUpdate());
                    assertEquals(List.of(6L, 7L), keys(ps));
                }
                // a key the application gives itself is kept, and the counter does not hand it out again
                s.executeUpdate("INSERT INTO orders (id, customer) VALUES (100, 'explicit')");
                committed.addAll(List.of(1L, 2L, 5L, 6L, 7L, 100L));
            }

            ExecutorService pool = Executors.newFixedThreadPool(INSERTERS);
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < INSERTERS; i++) {
                int client = i;
                futures.add(pool.submit(() -> {
                    inserter(cluster, client, committed);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
            pool.shutdown();

            assertEquals(HeterogeneousCluster.ALL_ENABLED, cluster.vdb().backendStates());
            cluster.controller.stop();
            int rows = cluster.assertIdentical("orders", "id");
            assertEquals(committed.size(), rows);
            for (String b : HeterogeneousCluster.BACKENDS) {
                Set<Long> ids = new TreeSet<>();
                try (Connection c = cluster.direct(b); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT id FROM orders")) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
                assertEquals(new TreeSet<>(committed), ids, "the keys the clients got are the keys " + b + " holds");
            }
        }
    }

    /** Inserts one row per call; every fifth transaction is rolled back. */
    private static void inserter(HeterogeneousCluster cluster, int client, Set<Long> committed) throws SQLException {
        try (Connection c = cluster.connect()) {
            for (int i = 0; i < INSERTS; i++) {
                boolean inTransaction = i % 3 == 0;
                c.setAutoCommit(!inTransaction);
                List<Long> keys = insert(c, "c" + client + "-" + i);
                assertEquals(1, keys.size());
                if (!inTransaction) {
                    assertTrue(committed.add(keys.get(0)), "key " + keys.get(0) + " handed out twice");
                } else if (i % 5 == 0) {
                    c.rollback();
                } else {
                    c.commit();
                    assertTrue(committed.add(keys.get(0)), "key " + keys.get(0) + " handed out twice");
                }
            }
            c.setAutoCommit(true);
        }
    }

    private static List<Long> insert(Connection c, String customer) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders (customer, amount) VALUES (?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, customer);
            ps.setBigDecimal(2, new java.math.BigDecimal("9.99"));
            assertEquals(1, ps.executeUpdate());
            return keys(ps);
        }
    }

    private static List<Long> keys(PreparedStatement ps) throws SQLException {
        List<Long> keys = new ArrayList<>();
        try (ResultSet rs = ps.getGeneratedKeys()) {
            while (rs.next()) {
                keys.add(rs.getLong(1));
            }
        }
        return keys;
    }
}
