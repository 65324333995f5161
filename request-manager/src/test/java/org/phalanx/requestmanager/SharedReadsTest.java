package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.LockGranularity;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.scheduler.LocalWriteOrdering;
import org.phalanx.requestmanager.scheduler.Scheduler;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.phalanx.testing.Sessions.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.testkit.jdbc.FaultyDriver;
import org.phalanx.testing.SqliteCluster;

/**
 * Writes that only read a table (INSERT ... SELECT from it) hold it shared, over real SQLite
 * files with table locking: they do not wait for each other, a write of their source waits for
 * them, and every replica inserts the same rows.
 */
class SharedReadsTest {
    private static final int ITEMS = 20;
    private static final int STOCK = 100;
    private static final int INCREMENTS = 40;

    @TempDir
    Path dir;
    private RequestManager rm;
    private SqliteCluster cluster;

    private void start(WaitPolicy policy, String... backends) throws SQLException {
        cluster = new SqliteCluster(dir, backends);
        rm = new RequestManager("shared", RequestManagerConfig.builder().waitPolicy(policy)
                .lockGranularity(LockGranularity.TABLE).lockTimeout(Duration.ofSeconds(10)).analysisCacheSize(1000).build(),
                cluster.backendConfigs());
        rm.start();
    }

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
    }

    private void createItems(Session s, String... workTables) throws SQLException {
        update(s, "CREATE TABLE items (id INTEGER PRIMARY KEY, qty INTEGER NOT NULL)");
        for (int i = 0; i < ITEMS; i++) {
            update(s, "INSERT INTO items (id, qty) VALUES (?, ?)", i, STOCK);
        }
        for (String w : workTables) {
            update(s, "CREATE TABLE " + w + " (run INTEGER NOT NULL, id INTEGER NOT NULL, qty INTEGER NOT NULL,"
                    + " PRIMARY KEY (run, id))");
        }
    }

    @Test
    void anInsertSelectLocksItsSourceSharedAndItsTargetExclusively() throws Exception {
        Scheduler scheduler = new Scheduler(new LocalWriteOrdering(), false, Duration.ofSeconds(10));
        SqlAnalyzer analyzer = new SqlAnalyzer(1000);
        Access access = scheduler.lockResources(analyzer.analyze(
                "INSERT INTO work_a (run, id, qty) SELECT ?, id, qty FROM items WHERE qty > 0"));
        assertEquals(Set.of("items"), access.reads());
        assertEquals(Set.of("work_a"), access.writes());
        Access selfRead = scheduler.lockResources(analyzer.analyze("UPDATE items SET qty = (SELECT MAX(qty) FROM items)"));
        assertEquals(Set.of("items"), selfRead.writes());
        assertTrue(selfRead.reads().isEmpty());
        assertEquals(Access.EVERYTHING, scheduler.lockResources(analyzer.analyze("DROP TABLE items")));
    }

    /**
     * Transaction B runs an INSERT ... SELECT from the table that open transaction A reads the
     * same way: B reaches the backends while A is still open (with exclusive locks it would wait
     * for A's end, and fail with 40001 after the lock timeout, since A only ends once B got there).
     */
    @Test
    void insertSelectTransactionsFromOneTableDoNotWaitForEachOther() throws Exception {
        start(WaitPolicy.ALL, "a", "b");
        try (Session setup = rm.openSession("u"); Session first = rm.openSession("u");
             Session second = rm.openSession("u")) {
            createItems(setup, "work_a", "work_b");
            first.setAutoCommit(false);
            update(first, "INSERT INTO work_a (run, id, qty) SELECT 1, id, qty FROM items");

            long[] before = {FaultyDriver.fault("a").executions.get(), FaultyDriver.fault("b").executions.get()};
            CompletableFuture<Void> secondDone = CompletableFuture.runAsync(() -> {
                try {
                    second.setAutoCommit(false);
                    update(second, "INSERT INTO work_b (run, id, qty) SELECT 1, id, qty FROM items");
                    second.commit();
                } catch (SQLException e) {
                    throw new IllegalStateException(e.getMessage() + " [" + e.getSQLState() + "]", e);
                }
            });
            // SQLite itself lets one transaction write a file at a time, so the second statement
            // waits inside SQLite for the first transaction's commit: the controller let it through
            while ((FaultyDriver.fault("a").executions.get() == before[0]
                    || FaultyDriver.fault("b").executions.get() == before[1]) && !secondDone.isDone()) {
                Thread.sleep(2);
            }
            assertNull(failure(secondDone), "the second INSERT ... SELECT reached every backend while the first"
                    + " transaction was open");
            first.commit();
            secondDone.get(30, TimeUnit.SECONDS);
        }
        rm.close();
        rm = null;
        for (String table : List.of("items", "work_a", "work_b")) {
            assertEquals(cluster.checksum("a", table, "1, 2"), cluster.checksum("b", table, "1, 2"), table);
        }
        assertEquals(ITEMS, count("a", "SELECT COUNT(*) FROM work_b"));
    }

    private static Throwable failure(CompletableFuture<?> f) {
        if (!f.isCompletedExceptionally()) {
            return null;
        }
        try {
            f.join();
            return null;
        } catch (RuntimeException e) {
            return e.getCause() == null ? e : e.getCause();
        }
    }

    /**
     * Readers copy the source table, in transactions (the copy, then its total) and alone, while
     * others change it: transactions moving stock between items, and auto-commit increments. One
     * backend is slower, so its queue holds many tasks. Afterwards every backend holds the same
     * copies, and each transaction's total matches its own copy (no write of the source came
     * between its two statements).
     */
    @Test
    void replicasInsertTheSameRowsUnderConcurrentReadersAndWritersOfTheSource() throws Exception {
        start(WaitPolicy.FIRST, "a", "b", "c");
        int readers = 3;
        List<String> workTables = new ArrayList<>();
        for (int k = 0; k < readers; k++) {
            workTables.add("work_" + k);
        }
        try (Session setup = rm.openSession("u")) {
            createItems(setup, workTables.toArray(new String[0]));
        }
        FaultyDriver.fault("c").delayMillis = 2;
        AtomicInteger retries = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(readers + 2);
        List<Future<?>> work = new ArrayList<>();
        for (int k = 0; k < readers; k++) {
            String table = workTables.get(k);
            work.add(pool.submit(() -> {
                try (Session s = rm.openSession("u")) {
                    for (int run = 0; run < 30; run++) {
                        boolean inTransaction = run % 3 != 0;
                        int r = run;
                        retrying(retries, s, () -> {
                            s.setAutoCommit(!inTransaction);
                            update(s, "INSERT INTO " + table + " (run, id, qty) SELECT ?, id, qty FROM items", r);
                            if (inTransaction) {
                                update(s, "INSERT INTO " + table + " (run, id, qty) SELECT ?, -1, SUM(qty) FROM items",
                                        r);
                                s.commit();
                            }
                        });
                        s.setAutoCommit(true);
                    }
                }
                return null;
            }));
        }
        work.add(pool.submit(() -> {
            Random random = new Random(1);
            try (Session s = rm.openSession("u")) {
                for (int i = 0; i < 60; i++) {
                    int from = random.nextInt(ITEMS);
                    int to = random.nextInt(ITEMS);
                    retrying(retries, s, () -> {
                        s.setAutoCommit(false);
                        update(s, "UPDATE items SET qty = qty - 1 WHERE id = ?", from);
                        update(s, "UPDATE items SET qty = qty + 1 WHERE id = ?", to);
                        s.commit();
                    });
                    s.setAutoCommit(true);
                }
            }
            return null;
        }));
        work.add(pool.submit(() -> {
            Random random = new Random(2);
            try (Session s = rm.openSession("u")) {
                for (int i = 0; i < INCREMENTS; i++) {
                    int id = random.nextInt(ITEMS);
                    retrying(retries, s, () -> update(s, "UPDATE items SET qty = qty + 1 WHERE id = ?", id));
                }
            }
            return null;
        }));
        pool.shutdown();
        for (Future<?> f : work) {
            f.get(120, TimeUnit.SECONDS);
        }
        rm.close(); // lets every backend's queue drain
        rm = null;
        for (String table : workTables) {
            String expected = cluster.checksum("a", table, "run, id");
            assertEquals(expected, cluster.checksum("b", table, "run, id"), table);
            assertEquals(expected, cluster.checksum("c", table, "run, id"), table);
            assertTrue(expected.startsWith(30 * ITEMS + 20 + ":"), table + " has every copy: " + expected);
        }
        assertEquals(cluster.checksum("a", "items", "id"), cluster.checksum("b", "items", "id"));
        assertEquals(cluster.checksum("a", "items", "id"), cluster.checksum("c", "items", "id"));
        assertEquals(ITEMS * STOCK + INCREMENTS, count("a", "SELECT SUM(qty) FROM items"));
        for (String table : workTables) {
            // each transaction's total (row -1) is the sum of its own copy: one state of the source
            assertEquals(0, count("a", "SELECT COUNT(*) FROM " + table + " t WHERE id = -1 AND qty <>"
                    + " (SELECT SUM(qty) FROM " + table + " c WHERE c.run = t.run AND c.id >= 0)"), table);
        }
        System.out.println("SharedReadsTest: " + retries.get() + " transaction(s) retried after 40001");
    }

    @FunctionalInterface
    private interface Unit {
        void run() throws SQLException;
    }

    /** Runs a unit of work again after a 40001 (the scheduler broke a deadlock or a wait timed out). */
    private static void retrying(AtomicInteger retries, Session s, Unit unit) throws SQLException {
        while (true) {
            try {
                unit.run();
                return;
            } catch (SQLException e) {
                if (!"40001".equals(e.getSQLState())) {
                    throw e;
                }
                retries.incrementAndGet();
                if (!s.getAutoCommit()) {
                    s.rollback();
                }
            }
        }
    }

    private long count(String backend, String sql) throws SQLException {
        try (Connection c = cluster.direct(backend); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
