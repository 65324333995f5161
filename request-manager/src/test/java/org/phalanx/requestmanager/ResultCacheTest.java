package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.CacheConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.phalanx.testing.Sessions.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.jdbc.FaultyDriver;
import org.phalanx.testing.SqliteCluster;

/** The result cache over real SQLite files. */
class ResultCacheTest {
    @TempDir
    Path dir;
    private RequestManager rm;

    private void start(CacheConfig cache, String... backends) throws SQLException {
        start(cache, WaitPolicy.FIRST, backends);
    }

    private void start(CacheConfig cache, WaitPolicy policy, String... backends) throws SQLException {
        SqliteCluster cluster = new SqliteCluster(dir, backends);
        rm = new RequestManager("cached", RequestManagerConfig.builder().waitPolicy(policy)
                .lockTimeout(Duration.ofSeconds(10)).analysisCacheSize(1000).cache(cache).build(), cluster.backendConfigs());
        rm.start();
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price INTEGER)");
            update(s, "CREATE TABLE other (id INTEGER PRIMARY KEY)");
            for (int i = 1; i <= 10; i++) {
                update(s, "INSERT INTO items VALUES (?, ?, ?)", i, "item" + i, i * 10);
            }
        }
    }

    private static CacheConfig cache(CacheConfig.Granularity g, CacheConfig.Rule... rules) {
        return new CacheConfig(1000, 1 << 20, 100, g, List.of(rules), 0, 0);
    }

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
    }

    /** First value of the first row, whether the rows came from a backend or the cache. */
    private static long value(Session s, String sql, Object... params) throws SQLException {
        try (Result r = s.execute(Request.of(sql, params))) {
            if (r instanceof Result.Cached c) {
                return ((Number) c.rows().get(0)[0]).longValue();
            }
            ResultSet rs = ((Result.Rows) r).resultSet();
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void run(Session s, String sql) throws SQLException {
        try (Result r = s.execute(Request.of(sql))) {
            if (r instanceof Result.Rows rows) {
                while (rows.resultSet().next()) {
                    // read it all, as a client would
                }
            }
        }
    }

    private long hits() {
        return rm.cacheStatistics().hits();
    }

    private static long executions(String backend) {
        return FaultyDriver.fault(backend).executions.get();
    }

    @Test
    void repeatedReadsAreAnsweredFromTheCacheUntilAWriteChangesTheirTable() throws Exception {
        start(cache(CacheConfig.Granularity.TABLE), "a");
        try (Session s = rm.openSession("u")) {
            assertEquals(30, value(s, "SELECT price FROM items WHERE id = ?", 3));
            long before = executions("a");
            assertEquals(30, value(s, "SELECT price FROM items WHERE id = ?", 3));
            assertEquals(before, executions("a"), "served by the cache");
            assertEquals(1, hits());
            update(s, "INSERT INTO other VALUES (1)");
            assertEquals(30, value(s, "SELECT price FROM items WHERE id = ?", 3));
            assertEquals(2, hits(), "a write to another table keeps the entry");
            update(s, "UPDATE items SET price = 31 WHERE id = 3");
            assertEquals(31, value(s, "SELECT price FROM items WHERE id = ?", 3), "invalidated before the write's reply");
            assertEquals(40, value(s, "SELECT price FROM items WHERE id = ?", 4), "parameters are part of the key");
        }
    }

    @Test
    void valueGranularityInvalidatesOnlyWhatTheWriteMayTouch() throws Exception {
        start(cache(CacheConfig.Granularity.VALUE), "a");
        try (Session s = rm.openSession("u")) {
            String byId = "SELECT price FROM items WHERE id = ?";
            String sum = "SELECT SUM(price) FROM items";
            String names = "SELECT name FROM items WHERE id = 8";
            value(s, byId, 7);
            value(s, byId, 8);
            value(s, sum);
            run(s, names);
            long hitsBefore = hits();
            update(s, "UPDATE items SET price = 71 WHERE id = 7");
            assertEquals(80, value(s, byId, 8));
            assertEquals(hitsBefore + 1, hits(), "id = 8 survives a write restricted to id = 7");
            assertEquals(71, value(s, byId, 7), "id = 7 was invalidated");
            assertEquals(551, value(s, sum), "the aggregate over items was invalidated");
            assertEquals(hitsBefore + 1, hits());
            update(s, "UPDATE items SET price = 81 WHERE id = 8");
            run(s, names);
            assertEquals(hitsBefore + 2, hits(), "column: a read of name survives a write of price");
            assertEquals(81, value(s, byId, 8), "a write of id 8's price invalidated it");
            assertEquals(hitsBefore + 2, hits());
            value(s, sum);
            update(s, "INSERT INTO items (id, name, price) VALUES (12, 'new', 1)");
            assertEquals(81, value(s, byId, 8), "an insert of id 12 leaves id 8");
            assertEquals(hitsBefore + 3, hits());
            assertEquals(553, value(s, sum), "but changes the aggregate");
            update(s, "DELETE FROM items WHERE id = 8");
            try (Result r = s.execute(Request.of(byId, 8))) {
                boolean empty = r instanceof Result.Cached c ? c.rows().isEmpty() : !((Result.Rows) r).resultSet().next();
                assertTrue(empty, "deleting id 8 invalidated it");
            }
        }
    }

    /** Rows as "id:name", whether from a backend or the cache. */
    private static List<String> listing(Session s, String sql) throws SQLException {
        List<String> rows = new java.util.ArrayList<>();
        try (Result r = s.execute(Request.of(sql))) {
            if (r instanceof Result.Cached c) {
                c.rows().forEach(row -> rows.add(row[0] + ":" + row[1]));
            } else {
                ResultSet rs = ((Result.Rows) r).resultSet();
                while (rs.next()) {
                    rows.add(rs.getLong(1) + ":" + rs.getString(2));
                }
            }
        }
        return rows;
    }

    @Test
    void aListingSurvivesUpdatesOfRowsItDoesNotShow() throws Exception {
        start(cache(CacheConfig.Granularity.VALUE), "a");
        try (Session s = rm.openSession("u")) {
            String cheap = "SELECT id, name FROM items WHERE price < 35 ORDER BY price";
            assertEquals(List.of("1:item1", "2:item2", "3:item3"), listing(s, cheap));
            long hitsBefore = hits();
            update(s, "UPDATE items SET name = 'renamed' WHERE id = 8");
            assertEquals(List.of("1:item1", "2:item2", "3:item3"), listing(s, cheap));
            assertEquals(hitsBefore + 1, hits(), "item 8 is not in the listing and cannot enter it by a new name");
            update(s, "UPDATE items SET name = 'two' WHERE id = 2");
            assertEquals(List.of("1:item1", "2:two", "3:item3"), listing(s, cheap), "item 2 is shown: invalidated");
            assertEquals(hitsBefore + 1, hits());
            update(s, "UPDATE items SET price = 5 WHERE id = 9");
            assertEquals(List.of("9:item9", "1:item1", "2:two", "3:item3"), listing(s, cheap),
                    "a write of a column the listing selects or orders by invalidates it");
            update(s, "UPDATE items SET name = 'x' WHERE name = 'item10'");
            assertEquals(List.of("9:item9", "1:item1", "2:two", "3:item3"), listing(s, cheap));
            assertEquals(hitsBefore + 1, hits(), "a write restricted by a column the listing does not show invalidates it");
        }
    }

    @Test
    void transactionsNeverCacheOrSeeUncommittedData() throws Exception {
        start(cache(CacheConfig.Granularity.TABLE), "a");
        try (Session writer = rm.openSession("u"); Session other = rm.openSession("u")) {
            assertEquals(10, value(other, "SELECT COUNT(*) FROM items"));
            writer.setAutoCommit(false);
            update(writer, "INSERT INTO items VALUES (11, 'x', 1)");
            assertEquals(11, value(writer, "SELECT COUNT(*) FROM items"), "its own write, not the cached 10");
            assertEquals(10, value(other, "SELECT COUNT(*) FROM items"), "others see committed data");
            writer.commit();
            assertEquals(11, value(other, "SELECT COUNT(*) FROM items"), "the commit invalidated the entry");
        }
    }

    @Test
    void rulesHintsAndNonDeterministicReadsBypassTheCache() throws Exception {
        start(cache(CacheConfig.Granularity.TABLE,
                new CacheConfig.Rule(Pattern.compile("FROM other"), CacheConfig.Action.NO_CACHING, null, "rule1")), "a");
        try (Session s = rm.openSession("u")) {
            for (int i = 0; i < 3; i++) {
                value(s, "SELECT COUNT(*) FROM other");
                value(s, "SELECT /*phalanx:nocache*/ COUNT(*) FROM items");
                value(s, "SELECT COUNT(*) FROM items WHERE price < RANDOM() * 1000");
            }
            assertEquals(0, hits());
        }
    }

    @Test
    void relaxedEntriesAreServedUpToTheirStalenessAndNeverBeyond() throws Exception {
        start(cache(CacheConfig.Granularity.TABLE, new CacheConfig.Rule(Pattern.compile("COUNT"),
                CacheConfig.Action.RELAXED, Duration.ofMillis(400), "relaxed")), "a");
        try (Session s = rm.openSession("u")) {
            long start = System.nanoTime();
            assertEquals(10, value(s, "SELECT COUNT(*) FROM items"));
            update(s, "INSERT INTO items VALUES (11, 'x', 1)");
            long seen = value(s, "SELECT COUNT(*) FROM items");
            if (System.nanoTime() - start < Duration.ofMillis(350).toNanos()) {
                assertEquals(10, seen, "stale but within the limit");
            }
            Thread.sleep(450);
            assertEquals(11, value(s, "SELECT COUNT(*) FROM items"), "past the limit: fresh");
        }
    }

    @Test
    void aReadThatRacedWithAConflictingWriteIsNotStored() throws Exception {
        start(cache(CacheConfig.Granularity.TABLE), "a");
        try (Session reader = rm.openSession("u"); Session writer = rm.openSession("u")) {
            FaultyDriver.fault("a").delayMillis = 300; // every statement waits before it runs
            CompletableFuture<Long> slowRead = CompletableFuture.supplyAsync(() -> {
                try {
                    return value(reader, "SELECT price FROM items WHERE id = 5");
                } catch (SQLException e) {
                    throw new RuntimeException(e);
                }
            });
            Thread.sleep(100); // the read is filling; the write comes in the middle of it
            update(writer, "UPDATE items SET price = 55 WHERE id = 5");
            assertEquals(50, slowRead.get(10, TimeUnit.SECONDS), "the read ran before the update");
            FaultyDriver.fault("a").delayMillis = 0;
            assertEquals(55, value(reader, "SELECT price FROM items WHERE id = 5"), "its stale rows were not stored");
            assertTrue(rm.cacheStatistics().notStored() >= 1);
        }
    }

    @Test
    void aListingThatRacedWithAnUpdateIsStoredOnlyIfItDoesNotShowTheUpdatedRow() throws Exception {
        start(cache(CacheConfig.Granularity.VALUE), "a");
        try (Session reader = rm.openSession("u"); Session writer = rm.openSession("u")) {
            String cheap = "SELECT id, name FROM items WHERE price < 35 ORDER BY price";
            FaultyDriver.fault("a").delayMillis = 300; // every statement waits before it runs
            CompletableFuture<List<String>> slowRead = CompletableFuture.supplyAsync(() -> listingOrFail(reader, cheap));
            Thread.sleep(100); // the read is filling; the write comes in the middle of it
            update(writer, "UPDATE items SET name = 'renamed' WHERE id = 8");
            assertEquals(List.of("1:item1", "2:item2", "3:item3"), slowRead.get(10, TimeUnit.SECONDS));
            FaultyDriver.fault("a").delayMillis = 0;
            long hits = hits();
            assertEquals(List.of("1:item1", "2:item2", "3:item3"), listing(reader, cheap));
            assertEquals(hits + 1, hits(), "item 8 is not shown: the rows were stored");

            String cheaper = "SELECT id, name FROM items WHERE price < 25 ORDER BY price";
            FaultyDriver.fault("a").delayMillis = 300;
            CompletableFuture<List<String>> racing = CompletableFuture.supplyAsync(() -> listingOrFail(reader, cheaper));
            Thread.sleep(100);
            update(writer, "UPDATE items SET name = 'two' WHERE id = 2");
            racing.get(10, TimeUnit.SECONDS);
            FaultyDriver.fault("a").delayMillis = 0;
            long notStored = rm.cacheStatistics().notStored();
            assertEquals(List.of("1:item1", "2:two"), listing(reader, cheaper), "item 2 is shown: not stored");
            assertTrue(notStored >= 1, "counted as not stored");
        }
    }

    private static List<String> listingOrFail(Session s, String sql) {
        try {
            return listing(s, sql);
        } catch (SQLException e) {
            throw new RuntimeException(e);
        }
    }

    @Test
    void identicalReadsWaitForTheOneRunning() throws Exception {
        start(cache(CacheConfig.Granularity.TABLE), "a");
        FaultyDriver.fault("a").delayMillis = 200;
        long before = executions("a");
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<Long>> results = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            results.add(pool.submit(() -> {
                try (Session s = rm.openSession("u")) {
                    return value(s, "SELECT SUM(price) FROM items");
                }
            }));
        }
        for (Future<Long> f : results) {
            assertEquals(550, f.get(10, TimeUnit.SECONDS));
        }
        pool.shutdown();
        assertEquals(before + 1, executions("a"), "one execution for six identical reads");
    }

    @Test
    void bigResultsStreamAndAreNotCached() throws Exception {
        start(new CacheConfig(1000, 1 << 20, 5, CacheConfig.Granularity.TABLE, List.of(), 0, 0), "a");
        try (Session s = rm.openSession("u")) {
            for (int round = 0; round < 2; round++) {
                try (Result r = s.execute(Request.of("SELECT id FROM items ORDER BY id"))) {
                    Result.Rows rows = assertInstanceOf(Result.Rows.class, r);
                    int n = rows.prefix().size();
                    ResultSet rs = rows.resultSet();
                    while (rs.next()) {
                        n++;
                    }
                    assertEquals(10, n, "prefix plus the rest");
                }
            }
            assertEquals(0, hits());
        }
    }

    /**
     * Done-when 1: with writers committing increments concurrently, a read that starts after a
     * write was acknowledged never returns an older value, at every granularity. (Wait policy
     * 'all': under 'first' another session may read a lagging replica, cache or not.)
     */
    @ParameterizedTest
    @EnumSource(CacheConfig.Granularity.class)
    void readsNeverSeeLessThanWhatWasAcknowledgedBeforeThem(CacheConfig.Granularity granularity) throws Exception {
        start(cache(granularity), WaitPolicy.ALL, "a", "b");
        RequestManager manager = rm;
        int keys = 10;
        AtomicLongArray acknowledged = new AtomicLongArray(keys + 1);
        for (int k = 1; k <= keys; k++) {
            acknowledged.set(k, k * 10L);
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            int seed = w;
            futures.add(pool.submit(() -> {
                Random random = new Random(seed);
                try (Session s = manager.openSession("u")) {
                    for (int i = 0; i < 60; i++) {
                        int k = 1 + random.nextInt(keys);
                        if (random.nextBoolean()) {
                            update(s, "UPDATE items SET price = price + 1 WHERE id = ?", k);
                        } else {
                            s.setAutoCommit(false);
                            update(s, "UPDATE items SET price = price + 1 WHERE id = ?", k);
                            s.commit();
                            s.setAutoCommit(true);
                        }
                        synchronized (acknowledged) {
                            acknowledged.incrementAndGet(k);
                        }
                    }
                }
                return null;
            }));
        }
        for (int r = 0; r < 5; r++) {
            int seed = 100 + r;
            futures.add(pool.submit(() -> {
                Random random = new Random(seed);
                try (Session s = manager.openSession("u")) {
                    for (int i = 0; i < 150; i++) {
                        int k = 1 + random.nextInt(keys);
                        long floor = acknowledged.get(k);
                        long seen = random.nextBoolean()
                                ? value(s, "SELECT price FROM items WHERE id = ?", k)
                                : value(s, "SELECT price FROM items WHERE id = " + k);
                        assertTrue(seen >= floor, "key " + k + ": read " + seen + " after " + floor + " was acknowledged");
                    }
                }
                return null;
            }));
        }
        try {
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
        // how many reads hit depends on how often a backend was idle; that the cache serves them does not
        try (Session s = manager.openSession("u")) {
            value(s, "SELECT price FROM items WHERE id = ?", 1);
            long hits = hits();
            assertEquals(acknowledged.get(1), value(s, "SELECT price FROM items WHERE id = ?", 1));
            assertEquals(hits + 1, hits(), "the cache serves this granularity: " + rm.cacheStatistics());
        }
    }
}
