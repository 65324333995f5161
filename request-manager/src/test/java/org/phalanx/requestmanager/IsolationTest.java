package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.testing.Sessions.update;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.testkit.db.SqliteFiles;
import org.phalanx.testkit.db.TestDatabases;
import org.phalanx.testkit.jdbc.FaultyDriver;

/**
 * Issue 16, done-when 1 to 5 on one engine at a time (SQLite: three files; PostgreSQL, MariaDB:
 * two databases), with a slow replica under 'first': at SERIALIZABLE no update is lost, no write
 * skew happens, a transaction's reads are repeatable and a read-only transaction sees the exact
 * total; the default level is the engine's.
 */
class IsolationTest {
    private static final int ACCOUNTS = 10;
    private static final long INITIAL = 1_000;
    private static final int CLIENTS = 6;
    private static final int TRANSFERS = 15;

    enum Kind { SQLITE, POSTGRESQL, MARIADB }

    @TempDir
    Path dir;
    private RequestManager rm;
    private final List<String> urls = new ArrayList<>();
    private Kind kind;

    @AfterEach
    void stop() {
        FaultyDriver.fault("iso-slow").reset();
        if (rm != null) {
            rm.close();
        }
        for (int i = 1; i <= 2 && kind != null && kind != Kind.SQLITE; i++) {
            if (kind == Kind.POSTGRESQL) {
                TestDatabases.dropPostgres("iso_b" + i);
            } else {
                TestDatabases.dropMariaDb("iso_b" + i);
            }
        }
    }

    /** The cluster: its last backend is slow (every statement waits a few milliseconds). */
    private void start(Kind kind) throws SQLException {
        this.kind = kind;
        List<BackendConfig> backends = new ArrayList<>();
        switch (kind) {
            case SQLITE -> {
                SqliteFiles files = new SqliteFiles(dir, "b1", "b2", "b3");
                urls.add(files.url("b1"));
                urls.add(files.url("b2"));
                urls.add(files.url("b3"));
            }
            case POSTGRESQL -> {
                urls.add(TestDatabases.createPostgres("iso_b1"));
                urls.add(TestDatabases.createPostgres("iso_b2"));
            }
            case MARIADB -> {
                urls.add(TestDatabases.createMariaDb("iso_b1"));
                urls.add(TestDatabases.createMariaDb("iso_b2"));
            }
        }
        String user = kind == Kind.POSTGRESQL ? "postgres" : kind == Kind.MARIADB ? "root" : null;
        for (int i = 0; i < urls.size(); i++) {
            boolean slow = i == urls.size() - 1;
            BackendConfig.Builder b = BackendConfig.builder("b" + (i + 1),
                    slow ? FaultyDriver.url("iso-slow", urls.get(i)) : urls.get(i)).poolSize(20);
            if (slow) {
                b.driverClass(FaultyDriver.class.getName());
            }
            if (user != null) {
                b.login(user, "");
            }
            backends.add(b.build());
        }
        FaultyDriver.fault("iso-slow").reset();
        rm = new RequestManager("iso", RequestManagerConfig.builder().waitPolicy(WaitPolicy.FIRST)
                .lockTimeout(Duration.ofSeconds(20)).build(), backends);
        rm.start();
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE acc (id INTEGER PRIMARY KEY, bal BIGINT NOT NULL)");
            update(s, "CREATE TABLE doctors (id INTEGER PRIMARY KEY, on_call INTEGER NOT NULL)");
            for (int i = 0; i < ACCOUNTS; i++) {
                update(s, "INSERT INTO acc VALUES (?, ?)", i, INITIAL);
            }
        }
        FaultyDriver.fault("iso-slow").delayMillis = 2;
    }

    private static long one(Session s, String sql, Object... params) throws SQLException {
        try (Result r = s.execute(Request.of(sql, params))) {
            ResultSet rs = ((Result.Rows) r).resultSet();
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }

    private static boolean refused(SQLException e) {
        return SqlState.SERIALIZATION_FAILURE.code().equals(e.getSQLState());
    }

    /** Runs the transaction until it commits, retrying when refused with 40001 (as the client must). */
    private static void retrying(Session s, AtomicLong refusals, Work work) throws SQLException {
        while (true) {
            try {
                work.run();
                s.commit();
                return;
            } catch (SQLException e) {
                if (!refused(e)) {
                    throw e;
                }
                refusals.incrementAndGet();
                s.rollback();
            }
        }
    }

    @FunctionalInterface
    private interface Work {
        void run() throws SQLException;
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void serializableTransfersLoseNothingAndReadOnlyTransactionsSeeTheExactTotal(Kind kind) throws Exception {
        start(kind);
        AtomicLong committed = new AtomicLong();
        AtomicLong refusals = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<String> anomalies = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1);
        List<Future<?>> clients = new ArrayList<>();
        for (int n = 0; n < CLIENTS; n++) {
            int client = n;
            clients.add(pool.submit(() -> {
                Random random = new Random(client);
                try (Session s = rm.openSession("u")) {
                    s.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                    s.setAutoCommit(false);
                    for (int i = 0; i < TRANSFERS; i++) {
                        int src = random.nextInt(ACCOUNTS);
                        int dst = (src + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                        long amount = 1 + random.nextInt(10);
                        retrying(s, refusals, () -> {
                            long from = one(s, "SELECT bal FROM acc WHERE id = ?", src);
                            long to = one(s, "SELECT bal FROM acc WHERE id = ?", dst);
                            // absolute values: a lost update would show in the total
                            update(s, "UPDATE acc SET bal = ? WHERE id = ?", from - amount, src);
                            long again = one(s, "SELECT bal FROM acc WHERE id = ?", src);
                            if (again != from - amount) {
                                anomalies.add("read " + again + " after writing " + (from - amount));
                            }
                            update(s, "UPDATE acc SET bal = ? WHERE id = ?", to + amount, dst);
                        });
                        committed.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        Future<Long> sums = pool.submit(() -> {
            long checked = 0;
            try (Session s = rm.openSession("u")) {
                s.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                s.setAutoCommit(false);
                while (!stop.get()) {
                    try {
                        long total = one(s, "SELECT SUM(bal) FROM acc");
                        if (total != ACCOUNTS * INITIAL) {
                            anomalies.add("a read-only transaction saw a total of " + total);
                        }
                        s.commit();
                        checked++;
                    } catch (SQLException e) {
                        if (!refused(e)) {
                            throw e;
                        }
                        s.rollback();
                    }
                }
            }
            return checked;
        });
        for (Future<?> f : clients) {
            f.get(5, TimeUnit.MINUTES);
        }
        stop.set(true);
        long checkedSums = sums.get(1, TimeUnit.MINUTES);
        pool.shutdown();
        assertEquals(List.of(), anomalies.stream().distinct().limit(10).toList(), "anomalies (the first ten)");
        assertEquals(CLIENTS * TRANSFERS, committed.get());
        assertTrue(checkedSums > 0, "read-only transactions ran");
        rm.close();
        rm = null;
        String expected = null;
        for (String url : urls) {
            try (Connection c = TestDatabases.connect(url); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT id, bal FROM acc ORDER BY id")) {
                StringBuilder rows = new StringBuilder();
                long total = 0;
                while (rs.next()) {
                    rows.append(rs.getLong(1)).append('=').append(rs.getLong(2)).append(' ');
                    total += rs.getLong(2);
                }
                assertEquals(ACCOUNTS * INITIAL, total, "total on " + url + ": " + rows);
                expected = expected == null ? rows.toString() : expected;
                assertEquals(expected, rows.toString(), "replicas identical");
            }
        }
        System.out.printf("IsolationTest %s: %d transfers committed, %d refused with 40001 and retried, %d sums%n",
                kind, committed.get(), refusals.get(), checkedSums);
    }

    /** Write skew: each doctor goes off call only if another is on call; never nobody. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void serializableTransactionsNeverLeaveNobodyOnCall(Kind kind) throws Exception {
        start(kind);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicLong refusals = new AtomicLong();
        try (Session admin = rm.openSession("u")) {
            for (int round = 0; round < 15; round++) {
                update(admin, "DELETE FROM doctors");
                update(admin, "INSERT INTO doctors VALUES (1, 1)");
                update(admin, "INSERT INTO doctors VALUES (2, 1)");
                List<Future<?>> doctors = new ArrayList<>();
                for (int d = 1; d <= 2; d++) {
                    int me = d;
                    doctors.add(pool.submit(() -> {
                        try (Session s = rm.openSession("u")) {
                            s.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                            s.setAutoCommit(false);
                            retrying(s, refusals, () -> {
                                if (one(s, "SELECT COUNT(*) FROM doctors WHERE on_call = 1") > 1) {
                                    update(s, "UPDATE doctors SET on_call = 0 WHERE id = ?", me);
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
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void theDefaultLevelIsTheEnginesAndLevelsAreHonouredOrRefused(Kind kind) throws Exception {
        start(kind);
        Engine engine = switch (kind) {
            case SQLITE -> Engine.SQLITE;
            case POSTGRESQL -> Engine.POSTGRESQL;
            case MARIADB -> Engine.MARIADB;
        };
        assertEquals(engine.defaultIsolation(), rm.defaultIsolation());
        try (Session s = rm.openSession("u")) {
            assertEquals(engine.defaultIsolation(), s.getTransactionIsolation());
            s.execute(Request.of("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ")).close();
            assertEquals(Connection.TRANSACTION_REPEATABLE_READ, s.getTransactionIsolation());
            SQLException none = assertThrows(SQLException.class, () -> s.setTransactionIsolation(Connection.TRANSACTION_NONE));
            assertEquals(SqlState.INVALID_PARAMETER_VALUE.code(), none.getSQLState());
            s.setAutoCommit(false);
            one(s, "SELECT COUNT(*) FROM acc");
            assertThrows(SQLException.class, () -> s.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE),
                    "not inside a transaction that has read");
            s.commit();
        }
    }
}
