package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;
import static org.phalanx.controller.it.Sql.update;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Issue 16, done-when 1 to 5 through the driver, on a SQLite vdb (three files), a PostgreSQL vdb
 * and a MariaDB vdb (two databases each), the last replica slow under wait policy 'first': at
 * SERIALIZABLE no update is lost, no write skew happens and a read-only transaction sees the exact
 * total; at SERIALIZABLE and REPEATABLE READ a transaction's reads never see a foreign write; the
 * levels a connection reports are the engine's and a level the vdb cannot give is refused.
 */
class IsolationAnomaliesIT extends WithEngineCluster {
    private static final int ACCOUNTS = 10;
    private static final long INITIAL = 1_000;
    private static final int CLIENTS = 16;
    private static final int TRANSFERS = 10;

    /** The cluster with tables {@code acc} (ACCOUNTS accounts of INITIAL) and {@code doctors}; its last replica slow. */
    private void start(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, kind == Kind.SQLITE ? 3 : 2, "phalanx_anomalies", "");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE acc (id INTEGER PRIMARY KEY, bal BIGINT NOT NULL)");
            s.executeUpdate("CREATE TABLE doctors (id INTEGER PRIMARY KEY, on_call INTEGER NOT NULL)");
            for (int i = 0; i < ACCOUNTS; i++) {
                s.executeUpdate("INSERT INTO acc VALUES (" + i + ", " + INITIAL + ")");
            }
        }
        cluster.slow().delayMillis = 2;
    }



    /** A connection whose transactions run at {@code level}. */
    private Connection transactional(int level) throws SQLException {
        Connection c = cluster.connect();
        c.setTransactionIsolation(level);
        c.setAutoCommit(false);
        return c;
    }

    /** Runs the transaction until it commits, retrying when refused with 40001 (as the client must). */
    private static void retrying(Connection c, AtomicLong refusals, Work work) throws SQLException {
        while (true) {
            try {
                work.run();
                c.commit();
                return;
            } catch (SQLException e) {
                if (!"40001".equals(e.getSQLState())) {
                    throw e;
                }
                refusals.incrementAndGet();
                c.rollback();
            }
        }
    }

    @FunctionalInterface
    private interface Work {
        void run() throws SQLException;
    }

    /** Done-when 1 and 4: transfers writing absolute values lose nothing; read-only sums see the exact total. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void serializableTransfersLoseNothingAndReadOnlyTransactionsSeeTheExactTotal(Kind kind) throws Exception {
        start(kind);
        AtomicLong committed = new AtomicLong();
        AtomicLong refusals = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<String> anomalies = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 2);
        List<Future<?>> clients = new ArrayList<>();
        for (int n = 0; n < CLIENTS; n++) {
            int client = n;
            clients.add(pool.submit(() -> {
                Random random = new Random(client);
                try (Connection c = transactional(Connection.TRANSACTION_SERIALIZABLE)) {
                    for (int i = 0; i < TRANSFERS; i++) {
                        int src = random.nextInt(ACCOUNTS);
                        int dst = (src + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                        long amount = 1 + random.nextInt(10);
                        retrying(c, refusals, () -> {
                            long from = one(c, "SELECT bal FROM acc WHERE id = ?", src);
                            long to = one(c, "SELECT bal FROM acc WHERE id = ?", dst);
                            // absolute values: a lost update would show in the total
                            update(c, "UPDATE acc SET bal = ? WHERE id = ?", from - amount, src);
                            update(c, "UPDATE acc SET bal = ? WHERE id = ?", to + amount, dst);
                        });
                        committed.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        Future<Long> sums = pool.submit(() -> sumAll(false, stop, anomalies));
        Future<Long> readOnlySums = pool.submit(() -> sumAll(true, stop, anomalies));
        for (Future<?> f : clients) {
            f.get(5, TimeUnit.MINUTES);
        }
        stop.set(true);
        long checkedSums = sums.get(1, TimeUnit.MINUTES);
        long checkedReadOnly = readOnlySums.get(1, TimeUnit.MINUTES);
        pool.shutdown();
        assertEquals(List.of(), anomalies.stream().distinct().limit(10).toList(), "anomalies (the first ten)");
        assertEquals(CLIENTS * TRANSFERS, committed.get());
        assertTrue(checkedSums > 0, "transactions that only read ran");
        assertTrue(checkedReadOnly > 0, "read-only transactions ran");
        try (Connection c = cluster.connect()) {
            assertEquals(ACCOUNTS * INITIAL, one(c, "SELECT SUM(bal) FROM acc"), "the total through the vdb");
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("acc", "id");
        try (Connection c = cluster.direct("b1")) {
            assertEquals(ACCOUNTS * INITIAL, one(c, "SELECT SUM(bal) FROM acc"), "the total on a replica");
        }
        System.out.printf("IsolationAnomaliesIT %s: %d transfers committed, %d refused with 40001 and retried,"
                + " %d sums, %d in read-only transactions%n", kind, committed.get(), refusals.get(), checkedSums,
                checkedReadOnly);
    }

    /**
     * Sums every balance in two reads of one SERIALIZABLE transaction until stopped: a transaction
     * that only reads (locking what it reads), or one declared read-only (read in a snapshot); both
     * must see the exact total. Returns how many it checked.
     */
    private long sumAll(boolean readOnly, AtomicBoolean stop, ConcurrentLinkedQueue<String> anomalies) throws SQLException {
        long checked = 0;
        try (Connection c = transactional(Connection.TRANSACTION_SERIALIZABLE)) {
            c.setReadOnly(readOnly);
            while (!stop.get()) {
                retrying(c, new AtomicLong(), () -> {
                    long low = one(c, "SELECT COALESCE(SUM(bal), 0) FROM acc WHERE id < ?", ACCOUNTS / 2);
                    long high = one(c, "SELECT COALESCE(SUM(bal), 0) FROM acc WHERE id >= ?", ACCOUNTS / 2);
                    if (low + high != ACCOUNTS * INITIAL) {
                        anomalies.add((readOnly ? "a read-only" : "a") + " transaction saw a total of " + (low + high));
                    }
                });
                checked++;
            }
        }
        return checked;
    }

    /** Done-when 2, write skew: each doctor goes off call only if another is on call; never nobody. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void serializableTransactionsNeverLeaveNobodyOnCall(Kind kind) throws Exception {
        start(kind);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicLong refusals = new AtomicLong();
        try (Connection admin = cluster.connect()) {
            for (int round = 0; round < 15; round++) {
                update(admin, "DELETE FROM doctors");
                update(admin, "INSERT INTO doctors VALUES (1, 1)");
                update(admin, "INSERT INTO doctors VALUES (2, 1)");
                List<Future<?>> doctors = new ArrayList<>();
                for (int d = 1; d <= 2; d++) {
                    int me = d;
                    doctors.add(pool.submit(() -> {
                        try (Connection c = transactional(Connection.TRANSACTION_SERIALIZABLE)) {
                            retrying(c, refusals, () -> {
                                if (one(c, "SELECT COUNT(*) FROM doctors WHERE on_call = 1") > 1) {
                                    update(c, "UPDATE doctors SET on_call = 0 WHERE id = ?", me);
                                }
                            });
                        }
                        return null;
                    }));
                }
                for (Future<?> f : doctors) {
                    f.get(1, TimeUnit.MINUTES);
                }
                assertEquals(1, one(admin, "SELECT COUNT(*) FROM doctors WHERE on_call = 1"), "round " + round);
            }
        }
        pool.shutdown();
        cluster.assertAllEnabled();
    }

    /**
     * Done-when 3, the issue's own test: read a balance, subtract from it, read it again; the
     * second read is the first minus the amount, at SERIALIZABLE and at REPEATABLE READ.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void readUpdateReadNeverSeesAForeignWrite(Kind kind) throws Exception {
        start(kind);
        ConcurrentLinkedQueue<String> anomalies = new ConcurrentLinkedQueue<>();
        AtomicLong refusals = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> clients = new ArrayList<>();
        for (int n = 0; n < 8; n++) {
            int client = n;
            int level = n % 2 == 0 ? Connection.TRANSACTION_SERIALIZABLE : Connection.TRANSACTION_REPEATABLE_READ;
            clients.add(pool.submit(() -> {
                Random random = new Random(client);
                try (Connection c = transactional(level)) {
                    for (int i = 0; i < 15; i++) {
                        int id = random.nextInt(3); // few accounts: every transaction meets others
                        long amount = 1 + random.nextInt(5);
                        retrying(c, refusals, () -> {
                            long before = one(c, "SELECT bal FROM acc WHERE id = ?", id);
                            update(c, "UPDATE acc SET bal = bal - ? WHERE id = ?", amount, id);
                            long after = one(c, "SELECT bal FROM acc WHERE id = ?", id);
                            if (after != before - amount) {
                                anomalies.add("level " + level + ": read " + before + ", subtracted " + amount
                                        + ", then read " + after);
                            }
                        });
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : clients) {
            f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertEquals(List.of(), anomalies.stream().limit(10).toList(), "anomalies (the first ten)");
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("acc", "id");
    }

    /**
     * A read-only SERIALIZABLE transaction reads one snapshot: a writer is not held back by it (the
     * update below would wait for its lock, up to the 20 s lock timeout, and fail otherwise), its
     * second read still sees the state of its first, and the next transaction sees the write.
     * Its read-only property cannot change inside it, as on PostgreSQL.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aReadOnlyTransactionReadsASnapshotAndHoldsNoWriterBack(Kind kind) throws Exception {
        start(kind);
        try (Connection reader = transactional(Connection.TRANSACTION_SERIALIZABLE); Connection writer = cluster.connect()) {
            reader.setReadOnly(true);
            assertEquals(INITIAL, one(reader, "SELECT bal FROM acc WHERE id = ?", 1));
            SQLException change = assertThrows(SQLException.class, () -> reader.setReadOnly(false));
            assertEquals("25001", change.getSQLState());
            update(writer, "UPDATE acc SET bal = bal + 5 WHERE id = ?", 1);
            assertEquals(INITIAL + 5, one(writer, "SELECT bal FROM acc WHERE id = ?", 1), "the writer reads its write");
            assertEquals(INITIAL, one(reader, "SELECT bal FROM acc WHERE id = ?", 1), "the snapshot");
            assertEquals(ACCOUNTS * INITIAL, one(reader, "SELECT SUM(bal) FROM acc"), "the snapshot, another read");
            SQLException write = assertThrows(SQLException.class,
                    () -> update(reader, "UPDATE acc SET bal = 0 WHERE id = ?", 2));
            assertEquals("25006", write.getSQLState());
            reader.commit();
            assertEquals(INITIAL + 5, one(reader, "SELECT bal FROM acc WHERE id = ?", 1), "a new transaction, a new snapshot");
            reader.rollback();
            reader.setReadOnly(false);
        }
        cluster.assertAllEnabled();
    }

    /** Done-when 5: the default is the engine's own; SQL and JDBC change the level alike; NONE is refused. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void theDefaultLevelIsTheEnginesAndLevelsAreHonouredOrRefused(Kind kind) throws Exception {
        start(kind);
        int expected = switch (kind) {
            case SQLITE -> Connection.TRANSACTION_SERIALIZABLE;
            case POSTGRESQL -> Connection.TRANSACTION_READ_COMMITTED;
            case MARIADB -> Connection.TRANSACTION_REPEATABLE_READ;
        };
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            assertEquals(expected, c.getMetaData().getDefaultTransactionIsolation());
            assertEquals(expected, c.getTransactionIsolation());
            s.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            assertEquals(Connection.TRANSACTION_REPEATABLE_READ, c.getTransactionIsolation());
            SQLException none = assertThrows(SQLException.class, () -> c.setTransactionIsolation(Connection.TRANSACTION_NONE));
            assertTrue(none.getMessage().contains("NONE") || none.getMessage().toLowerCase().contains("isolation"),
                    none.getMessage());
            c.setAutoCommit(false);
            one(c, "SELECT COUNT(*) FROM acc");
            SQLException inside = assertThrows(SQLException.class,
                    () -> s.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"), "not once the transaction has read");
            assertEquals("25001", inside.getSQLState());
            c.commit();
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(Connection.TRANSACTION_SERIALIZABLE, c.getTransactionIsolation());
        }
    }
}
