package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;
import static org.phalanx.controller.it.Sql.update;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Key-level write conflicts ({@code lockGranularity="key"}, issue 17) on PostgreSQL and MariaDB
 * virtual databases of three backends, the last one slow: transactions writing different rows of
 * a table do not wait for each other; and a randomized workload of many clients — overlapping
 * and disjoint keys, deletes and re-inserts of one key, transfers between two rows, a table with
 * a second unique column, a table whose key the engine generates — leaves every replica
 * identical with every backend enabled, the only errors being the ones one database gives
 * (duplicate keys) and 40001 refusals of lock cycles.
 */
class KeyConflictsIT extends WithEngineCluster {
    private static final int CLIENTS = 12;
    private static final long RUN_MILLIS = Long.getLong("keyConflicts.millis", 4_000);
    private static final int ACCOUNTS = 20;
    private static final int WAREHOUSES = 2;
    private static final int DISTRICTS = 3;

    private void start(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 3, "phalanx_keys", "lockGranularity=\"key\"");
        String generatedKey = kind == Kind.POSTGRESQL ? "SERIAL PRIMARY KEY" : "INTEGER AUTO_INCREMENT PRIMARY KEY";
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE acc (id INTEGER PRIMARY KEY, bal BIGINT NOT NULL)");
            s.executeUpdate("CREATE TABLE uniq (id INTEGER PRIMARY KEY, email VARCHAR(40) UNIQUE, n INTEGER NOT NULL)");
            s.executeUpdate("CREATE TABLE gen (id " + generatedKey + ", v INTEGER NOT NULL)");
            for (int i = 0; i < ACCOUNTS; i++) {
                s.executeUpdate("INSERT INTO acc VALUES (" + i + ", 1000)");
            }
            // TPC-C's shape: composite keys, foreign keys (cascading and not), a table without a key
            s.executeUpdate("CREATE TABLE dist (w INTEGER NOT NULL, d INTEGER NOT NULL, next_o INTEGER NOT NULL,"
                    + " ytd BIGINT NOT NULL, PRIMARY KEY (w, d))");
            s.executeUpdate("CREATE TABLE ord (w INTEGER NOT NULL, d INTEGER NOT NULL, o INTEGER NOT NULL,"
                    + " amount INTEGER NOT NULL, PRIMARY KEY (w, d, o),"
                    + " FOREIGN KEY (w, d) REFERENCES dist (w, d) ON DELETE CASCADE)");
            s.executeUpdate("CREATE TABLE line (w INTEGER NOT NULL, d INTEGER NOT NULL, o INTEGER NOT NULL,"
                    + " n INTEGER NOT NULL, qty INTEGER NOT NULL, PRIMARY KEY (w, d, o, n),"
                    + " FOREIGN KEY (w, d, o) REFERENCES ord (w, d, o) ON DELETE CASCADE)");
            s.executeUpdate("CREATE TABLE hist (w INTEGER NOT NULL, d INTEGER NOT NULL, amount INTEGER NOT NULL,"
                    + " FOREIGN KEY (w, d) REFERENCES dist (w, d) ON DELETE CASCADE)");
            for (int w = 1; w <= WAREHOUSES; w++) {
                for (int d = 1; d <= DISTRICTS; d++) {
                    s.executeUpdate("INSERT INTO dist VALUES (" + w + ", " + d + ", 1, 0)");
                }
            }
        }
        awaitSchemaSettled();
        cluster.slow().delayMillis = 1;
    }



    /** With table-level conflicts the second update would wait for the first transaction (then 40001 after 20 s). */
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void transactionsWritingDifferentRowsDoNotWaitForEachOther(Kind kind) throws Exception {
        start(kind);
        try (Connection a = cluster.connect(); Connection b = cluster.connect()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            assertEquals(1, update(a, "UPDATE acc SET bal = bal + 1 WHERE id = ?", 1));
            assertEquals(1, update(b, "UPDATE acc SET bal = bal + 2 WHERE id = ?", 2));
            assertEquals(1, update(b, "DELETE FROM acc WHERE id = ?", 3));
            assertEquals(1, update(b, "INSERT INTO acc (id, bal) VALUES (?, ?)", 3, 7));
            b.commit();
            a.commit();
            assertEquals(1001, one(a, "SELECT bal FROM acc WHERE id = ?", 1));
            assertEquals(1002, one(a, "SELECT bal FROM acc WHERE id = ?", 2));
            assertEquals(7, one(a, "SELECT bal FROM acc WHERE id = ?", 3));
            a.commit();
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("acc", "id");
    }

    /** Until a DDL has run on every backend, every write locks the whole database. */
    private void awaitSchemaSettled() throws InterruptedException {
        while (cluster.vdb().requestManager().orElseThrow().schemaChangesSettling() > 0) {
            Thread.sleep(10);
        }
    }

    private long rowLevelWrites() {
        return cluster.vdb().statistics().rowLevelWrites();
    }

    /**
     * Which writes lock rows only: a single-row write of a qualifying table; not one of a table with
     * a second unique index, nor, once such an index is created through the virtual database, of
     * the table that qualified before.
     */
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void onlyQualifyingTablesLockRowsAndASchemaChangeIsSeen(Kind kind) throws Exception {
        start(kind);
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            long before = rowLevelWrites();
            update(c, "UPDATE acc SET bal = bal + 1 WHERE id = ?", 1);
            assertEquals(before + 1, rowLevelWrites(), "acc qualifies");
            update(c, "INSERT INTO uniq (id, email, n) VALUES (?, ?, 0)", 1, "a");
            update(c, "UPDATE uniq SET n = n + 1 WHERE id = ?", 1);
            update(c, "UPDATE acc SET bal = bal + 1 WHERE id IN (?, ?)", 1, 2);
            assertEquals(before + 1, rowLevelWrites(), "a second unique column, or no single key: the table");
            // a table whose writes the engine extends to another: a rule (PostgreSQL) or a trigger (MariaDB)
            s.executeUpdate("CREATE TABLE ruled (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
            s.executeUpdate("CREATE TABLE audit (n INTEGER)");
            s.executeUpdate(kind == Kind.POSTGRESQL
                    ? "CREATE RULE ruled_audit AS ON UPDATE TO ruled DO ALSO INSERT INTO audit VALUES (1)"
                    : "CREATE TRIGGER ruled_audit AFTER UPDATE ON ruled FOR EACH ROW INSERT INTO audit VALUES (1)");
            s.executeUpdate("INSERT INTO ruled VALUES (1, 0)");
            update(c, "UPDATE ruled SET v = v + 1 WHERE id = ?", 1);
            assertEquals(before + 1, rowLevelWrites(), "a rule or trigger: the table");
            assertEquals(1, one(c, "SELECT COUNT(*) FROM audit"));
            // composite keys, foreign keys, a table without a key, locking reads; once the trigger is
            // created on every backend (until then, writes lock the whole database)
            awaitSchemaSettled();
            update(c, "UPDATE dist SET ytd = ytd + 1 WHERE w = ? AND d = ?", 1, 1);
            assertEquals(before + 2, rowLevelWrites(), "a composite key");
            c.setAutoCommit(false);
            assertEquals(1, one(c, "SELECT next_o FROM dist WHERE w = ? AND d = ? FOR UPDATE", 1, 2));
            update(c, "INSERT INTO ord (w, d, o, amount) VALUES (?, ?, ?, ?)", 1, 2, 1, 10);
            update(c, "INSERT INTO line (w, d, o, n, qty) VALUES (?, ?, ?, ?, ?)", 1, 2, 1, 1, 5);
            update(c, "INSERT INTO hist (w, d, amount) VALUES (?, ?, ?)", 1, 2, 7);
            update(c, "UPDATE line SET qty = qty + 1 WHERE w = ? AND d = ? AND o = ? AND n = ?", 1, 2, 1, 1);
            assertEquals(before + 7, rowLevelWrites(), "a locking read, inserts of children, of a table without a key");
            update(c, "UPDATE line SET qty = 0 WHERE w = ? AND d = ? AND o = ?", 1, 2, 1);
            assertEquals(before + 8, rowLevelWrites(), "the first key columns: the rows they start");
            update(c, "UPDATE line SET qty = 0 WHERE d = ? AND o = ?", 2, 1);
            assertEquals(before + 8, rowLevelWrites(), "key columns, but not the first: the table");
            update(c, "DELETE FROM line WHERE w = ? AND d = ? AND o = ? AND n = ?", 1, 2, 1, 1);
            assertEquals(before + 9, rowLevelWrites(), "a child's delete");
            update(c, "UPDATE ord SET d = ? WHERE w = ? AND d = ? AND o = ?", 3, 1, 2, 1);
            assertEquals(before + 9, rowLevelWrites(), "a key changed: the table");
            update(c, "DELETE FROM ord WHERE w = ? AND d = ? AND o = ?", 1, 3, 1);
            assertEquals(before + 9, rowLevelWrites(), "a parent's delete: the table and its descendants");
            c.commit();
            c.setAutoCommit(true);
            s.executeUpdate("UPDATE acc SET bal = id"); // distinct balances, for the index; the whole table
            s.executeUpdate("CREATE UNIQUE INDEX acc_bal ON acc (bal)");
            awaitSchemaSettled();
            update(c, "UPDATE acc SET bal = bal + 100 WHERE id = ?", 3);
            assertEquals(before + 9, rowLevelWrites(), "acc no longer qualifies");
        }
        cluster.assertAllEnabled();
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void aRandomizedWorkloadLeavesEveryReplicaIdentical(Kind kind) throws Exception {
        start(kind);
        AtomicLong done = new AtomicLong();
        AtomicLong duplicates = new AtomicLong();
        AtomicLong refusals = new AtomicLong();
        long end = System.currentTimeMillis() + RUN_MILLIS;
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> clients = new ArrayList<>();
        for (int n = 0; n < CLIENTS; n++) {
            SplittableRandom r = new SplittableRandom(n);
            clients.add(pool.submit(() -> {
                try (Connection c = cluster.connect()) {
                    while (System.currentTimeMillis() < end) {
                        try {
                            step(c, r);
                            done.incrementAndGet();
                        } catch (SQLException e) {
                            if (!c.getAutoCommit()) {
                                c.rollback();
                                c.setAutoCommit(true);
                            }
                            String state = e.getSQLState();
                            if ("40001".equals(state)) {
                                refusals.incrementAndGet();
                            } else if (state != null && state.startsWith("23")) {
                                duplicates.incrementAndGet(); // as one database answers
                            } else {
                                throw e;
                            }
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : clients) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertTrue(done.get() > 100, done.get() + " operations");
        assertTrue(rowLevelWrites() > 0, "some writes locked rows only");
        cluster.assertAllEnabled();
        cluster.stopController();
        long accounts = cluster.assertIdentical("acc", "id");
        long unique = cluster.assertIdentical("uniq", "id");
        long generated = cluster.assertIdentical("gen", "id");
        long orders = cluster.assertIdentical("ord", "w, d, o");
        long lines = cluster.assertIdentical("line", "w, d, o, n");
        long history = cluster.assertIdentical("hist", "w, d, amount");
        cluster.assertIdentical("dist", "w, d");
        System.out.printf("KeyConflictsIT %s: %d operations, %d refused by a unique or key constraint, %d refused"
                + " with 40001; rows: acc %d, uniq %d, gen %d, ord %d, line %d, hist %d%n", kind, done.get(),
                duplicates.get(), refusals.get(), accounts, unique, generated, orders, lines, history);
    }

    /**
     * One random operation on TPC-C's shape: a new order (the district's counter read FOR UPDATE and
     * increased, the order and two lines inserted), a payment (the district updated, a history row
     * inserted), an order or history row inserted on its own, a line or every line of an order changed or deleted, an order deleted (its lines cascade), a
     * district deleted (its orders, their lines and its history cascade) or
     * inserted again.
     */
    private static void orderStep(Connection c, SplittableRandom r) throws SQLException {
        int w = 1 + r.nextInt(WAREHOUSES);
        int d = 1 + r.nextInt(DISTRICTS);
        switch (r.nextInt(12)) {
            case 0, 1, 2 -> {
                c.setAutoCommit(false);
                try (PreparedStatement ps = c.prepareStatement("SELECT next_o FROM dist WHERE w = ? AND d = ? FOR UPDATE")) {
                    ps.setInt(1, w);
                    ps.setInt(2, d);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            int o = rs.getInt(1);
                            update(c, "UPDATE dist SET next_o = next_o + 1 WHERE w = ? AND d = ?", w, d);
                            update(c, "INSERT INTO ord (w, d, o, amount) VALUES (?, ?, ?, ?)", w, d, o, r.nextInt(100));
                            for (int n = 1; n <= 2; n++) {
                                update(c, "INSERT INTO line (w, d, o, n, qty) VALUES (?, ?, ?, ?, ?)", w, d, o, n, 5);
                            }
                        }
                    }
                }
                c.commit();
                c.setAutoCommit(true);
            }
            case 3 -> {
                c.setAutoCommit(false);
                update(c, "UPDATE dist SET ytd = ytd + ? WHERE w = ? AND d = ?", 10, w, d);
                update(c, "INSERT INTO hist (w, d, amount) VALUES (?, ?, ?)", w, d, r.nextInt(100));
                c.commit();
                c.setAutoCommit(true);
            }
            case 4, 5 -> { // a child inserted on its own: it succeeds or fails by whether the district is there
                if (r.nextBoolean()) {
                    update(c, "INSERT INTO hist (w, d, amount) VALUES (?, ?, ?)", w, d, r.nextInt(100));
                } else {
                    update(c, "INSERT INTO ord (w, d, o, amount) VALUES (?, ?, ?, 0)", w, d, 100 + r.nextInt(4));
                }
            }
            case 6 -> {
                if (r.nextBoolean()) {
                    update(c, "UPDATE line SET qty = qty + 1 WHERE w = ? AND d = ? AND o = ? AND n = ?", w, d,
                            1 + r.nextInt(8), 1 + r.nextInt(2));
                } else { // TPC-C's Delivery: every line of an order (a key prefix)
                    update(c, "UPDATE line SET qty = qty * 2 WHERE w = ? AND d = ? AND o = ?", w, d, 1 + r.nextInt(8));
                }
            }
            case 7 -> {
                if (r.nextBoolean()) {
                    update(c, "DELETE FROM line WHERE w = ? AND d = ? AND o = ? AND n = ?", w, d, 1 + r.nextInt(8),
                            1 + r.nextInt(2));
                } else {
                    update(c, "DELETE FROM line WHERE w = ? AND d = ? AND o = ?", w, d, 1 + r.nextInt(8));
                }
            }
            case 8 -> update(c, "DELETE FROM ord WHERE w = ? AND d = ? AND o = ?", w, d, 1 + r.nextInt(8));
            case 9 -> update(c, "DELETE FROM dist WHERE w = ? AND d = ?", w, d);
            default -> update(c, "INSERT INTO dist (w, d, next_o, ytd) VALUES (?, ?, ?, 0)", w, d, 1 + r.nextInt(4));
        }
    }

    /** One random operation: mostly single-row writes of overlapping keys, some transfers and the other tables. */
    private static void step(Connection c, SplittableRandom r) throws SQLException {
        if (r.nextBoolean()) {
            orderStep(c, r);
            return;
        }
        int id = r.nextInt(ACCOUNTS);
        switch (r.nextInt(10)) {
            case 0, 1, 2 -> update(c, "UPDATE acc SET bal = bal + ? WHERE id = ?", 1 + r.nextInt(9), id);
            case 3 -> update(c, "DELETE FROM acc WHERE id = ?", id);
            case 4 -> update(c, "INSERT INTO acc (id, bal) VALUES (?, ?)", id, r.nextInt(100));
            case 5 -> { // a transfer between two rows: lock cycles between two such are refused with 40001
                int other = (id + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                c.setAutoCommit(false);
                update(c, "UPDATE acc SET bal = bal - 5 WHERE id = ?", id);
                update(c, "UPDATE acc SET bal = bal + 5 WHERE id = ?", other);
                c.commit();
                c.setAutoCommit(true);
            }
            case 6 -> update(c, "INSERT INTO uniq (id, email, n) VALUES (?, ?, 0)", r.nextInt(30), "u" + r.nextInt(10));
            case 7 -> update(c, "UPDATE uniq SET email = ?, n = n + 1 WHERE id = ?", "u" + r.nextInt(10), r.nextInt(30));
            case 8 -> update(c, r.nextBoolean() ? "DELETE FROM uniq WHERE id = ?" : "DELETE FROM gen WHERE id = ?",
                    r.nextInt(30));
            default -> {
                if (r.nextBoolean()) {
                    update(c, "INSERT INTO gen (v) VALUES (?)", r.nextInt(100));
                } else {
                    update(c, "UPDATE gen SET v = v + 1 WHERE id = ?", 1 + r.nextInt(30));
                }
            }
        }
    }
}
