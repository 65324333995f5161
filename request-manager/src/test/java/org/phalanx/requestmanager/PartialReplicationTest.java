package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.recoverylog.dump.Backupers;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.recoverylog.dump.Progress;
import org.phalanx.requestmanager.config.PlacementRule;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.config.ReplicationLevel;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.phalanx.testing.Sessions.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.jdbc.FaultyDriver;
import org.phalanx.testing.SqliteCluster;

/** RAIDb-2 and RAIDb-0 over four real SQLite files. */
class PartialReplicationTest {
    private static final List<String> ALL = List.of("b1", "b2", "b3", "b4");

    @TempDir
    Path dir;
    private RequestManager rm;
    private SqliteCluster cluster;

    /** hot_* everywhere, big_* on b1+b2, solo_* on b3, others by the level's default. */
    /** Wait policy 'all', so the files can be checked right after a statement returns. */
    private void start(ReplicationLevel level, List<PlacementRule> rules) throws SQLException {
        start(level, rules, WaitPolicy.ALL);
    }

    private void start(ReplicationLevel level, List<PlacementRule> rules, WaitPolicy policy) throws SQLException {
        cluster = new SqliteCluster(dir, ALL.toArray(new String[0]));
        rm = new RequestManager("partial", RequestManagerConfig.builder().replication(level).waitPolicy(policy)
                .lockTimeout(Duration.ofSeconds(10)).analysisCacheSize(1000).placementRules(rules).build(), cluster.backendConfigs());
        rm.start();
    }

    private static final List<PlacementRule> RULES = List.of(
            new PlacementRule(Pattern.compile("hot_.*"), PlacementRule.Policy.ALL, List.of(), 0, "test:1:1"),
            new PlacementRule(Pattern.compile("big_.*"), PlacementRule.Policy.BACKENDS, List.of("b1", "b2"), 0, "test:2:1"),
            new PlacementRule(Pattern.compile("solo_.*"), PlacementRule.Policy.BACKENDS, List.of("b3"), 0, "test:3:1"));

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
    }

    private static List<String> query(Session s, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Result r = s.execute(Request.of(sql))) {
            ResultSet rs = ((Result.Rows) r).resultSet();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(rs.getString(i)).append('|');
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    /** The tables a backend file really holds, read directly. */
    private Set<String> tablesOn(String backend) throws SQLException {
        Set<String> names = new HashSet<>();
        try (Connection c = cluster.direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private void createSchema(Session s) throws SQLException {
        update(s, "CREATE TABLE hot_items (id INTEGER PRIMARY KEY, name TEXT, price INTEGER)");
        update(s, "CREATE TABLE big_log (id INTEGER PRIMARY KEY, item INTEGER, note TEXT)");
        update(s, "CREATE TABLE solo_notes (id INTEGER PRIMARY KEY, text TEXT)");
    }

    /**
     * A group's primary replicating partially dumps the union of its backends (none holds every
     * table): each table once, from a backend holding it, at one log position; a backend of another
     * engine or placement restores it whole.
     */
    @Test
    void aDumpIsTheUnionOfTheBackendsAtOneLogPosition() throws Exception {
        cluster = new SqliteCluster(dir, ALL.toArray(new String[0]));
        rm = new RequestManager("partial", RequestManagerConfig.builder().replication(ReplicationLevel.RAIDB_2)
                .waitPolicy(WaitPolicy.ALL).lockTimeout(Duration.ofSeconds(10)).analysisCacheSize(1000)
                .placementRules(RULES).recovery(new RecoveryConfig(new FileRecoveryLog(dir.resolve("log")), true))
                .build(), cluster.backendConfigs());
        rm.start();
        try (Session s = rm.openSession("u")) {
            createSchema(s);
            update(s, "INSERT INTO big_log VALUES (1, 1, 'a'), (2, 1, 'b')");
            update(s, "INSERT INTO solo_notes VALUES (7, 'only on b3')");
        }
        Path dump = dir.resolve("union.dump");
        long position = rm.dump(dump);
        assertEquals(rm.lastPosition(), position, "nothing was written after the last insert");
        DumpInfo info = Backupers.verify(dump, Progress.NONE);
        assertEquals(position, info.checkpointPosition());
        assertEquals(Set.of(new DumpInfo.TableRows("hot_items", 0), new DumpInfo.TableRows("big_log", 2),
                new DumpInfo.TableRows("solo_notes", 1)), Set.copyOf(info.tables()), "no backend holds all three");
        try (Connection target = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("t.db"))) {
            Backupers.forFormat(info.format()).restore(dump, target, true, Progress.NONE);
            try (Statement st = target.createStatement();
                 ResultSet rs = st.executeQuery("SELECT text FROM solo_notes")) {
                assertTrue(rs.next());
                assertEquals("only on b3", rs.getString(1));
            }
        }
    }

    @Test
    void createTableFollowsThePlacementRulesAndWritesGoOnlyWhereTheTableIs() throws Exception {
        start(ReplicationLevel.RAIDB_2, RULES);
        try (Session s = rm.openSession("u")) {
            createSchema(s);
            assertEquals(Set.of("hot_items", "big_log"), tablesOn("b1"));
            assertEquals(Set.of("hot_items", "big_log"), tablesOn("b2"));
            assertEquals(Set.of("hot_items", "solo_notes"), tablesOn("b3"));
            assertEquals(Set.of("hot_items"), tablesOn("b4"));
            long b3 = FaultyDriver.fault("b3").executions.get();
            long b4 = FaultyDriver.fault("b4").executions.get();
            for (int i = 0; i < 10; i++) {
                update(s, "INSERT INTO big_log VALUES (?, ?, ?)", i, i % 3, "n" + i);
            }
            assertEquals(b3, FaultyDriver.fault("b3").executions.get(), "b3 does not hold big_log");
            assertEquals(b4, FaultyDriver.fault("b4").executions.get(), "b4 does not hold big_log");
        }
        rm.close();
        rm = null;
        assertEquals(cluster.checksum("b1", "big_log", "id"), cluster.checksum("b2", "big_log", "id"));
        assertTrue(cluster.checksum("b1", "big_log", "id").startsWith("10:"));
    }

    @Test
    void createTableOfAnExistingTableGoesWhereItIsNotToNewBackends() throws Exception {
        start(ReplicationLevel.RAIDB_2, List.of(
                new PlacementRule(Pattern.compile("work_.*"), PlacementRule.Policy.ROUND_ROBIN, List.of(), 2, "test:1:1")));
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE IF NOT EXISTS work_a (id INTEGER PRIMARY KEY)");
            List<String> holders = ALL.stream().filter(b -> {
                try {
                    return tablesOn(b).contains("work_a");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
            assertEquals(2, holders.size());
            update(s, "INSERT INTO work_a VALUES (1)");
            for (int i = 0; i < 3; i++) {
                update(s, "CREATE TABLE IF NOT EXISTS work_a (id INTEGER PRIMARY KEY)");
            }
            SQLException plain = assertThrows(SQLException.class,
                    () -> update(s, "CREATE TABLE work_a (id INTEGER PRIMARY KEY)"));
            assertTrue(plain.getMessage().contains("work_a"), plain.getMessage());
            for (String b : ALL) {
                assertEquals(holders.contains(b), tablesOn(b).contains("work_a"), "work_a on " + b);
            }
            for (int i = 0; i < 8; i++) {
                assertEquals(List.of("1|"), query(s, "SELECT id FROM work_a"), "no empty copy answers a read");
            }
        }
    }

    @Test
    void joinsAreServedOnlyWhereEveryTableIsAndOtherwiseRefusedClearly() throws Exception {
        start(ReplicationLevel.RAIDB_2, RULES);
        try (Session s = rm.openSession("u")) {
            createSchema(s);
            update(s, "INSERT INTO hot_items VALUES (1, 'pen', 3)");
            update(s, "INSERT INTO big_log VALUES (1, 1, 'sold')");
            update(s, "INSERT INTO solo_notes VALUES (1, 'hello')");
            long b3 = FaultyDriver.fault("b3").executions.get();
            long b4 = FaultyDriver.fault("b4").executions.get();
            for (int i = 0; i < 6; i++) {
                assertEquals(List.of("pen|sold|"), query(s,
                        "SELECT h.name, l.note FROM hot_items h JOIN big_log l ON l.item = h.id"));
                assertEquals(List.of("1|"), query(s,
                        "SELECT COUNT(*) FROM hot_items WHERE id IN (SELECT item FROM big_log)"));
            }
            assertEquals(b3, FaultyDriver.fault("b3").executions.get());
            assertEquals(b4, FaultyDriver.fault("b4").executions.get());
            SQLException e = assertThrows(SQLException.class,
                    () -> query(s, "SELECT * FROM big_log l JOIN solo_notes n ON n.id = l.id"));
            assertEquals("0A000", e.getSQLState());
            assertTrue(e.getMessage().contains("big_log is on b1, b2") && e.getMessage().contains("solo_notes is on b3"),
                    e.getMessage());
            SQLException insertSelect = assertThrows(SQLException.class,
                    () -> update(s, "INSERT INTO solo_notes SELECT id, note FROM big_log"));
            assertEquals("0A000", insertSelect.getSQLState());
            assertEquals(1, query(s, "SELECT * FROM solo_notes").size(), "nothing was half applied");
        }
    }

    @Test
    void writesRightAfterCreateTableReachEveryHolderEvenUnderFirst() throws Exception {
        start(ReplicationLevel.RAIDB_2, RULES, WaitPolicy.FIRST);
        FaultyDriver.fault("b2").delayMillis = 50; // b2 applies the CREATE after b1 answered
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE big_fresh (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO big_fresh VALUES (1)");
            assertEquals(List.of("1|"), query(s, "SELECT COUNT(*) FROM big_fresh"), "a read right after CREATE");
        }
        rm.close();
        rm = null;
        FaultyDriver.fault("b2").delayMillis = 0;
        assertEquals(cluster.checksum("b1", "big_fresh", "id"), cluster.checksum("b2", "big_fresh", "id"),
                "the insert reached b2, which was still creating the table when it was sent");
    }

    @Test
    void ddlKeepsTheSchemaViewRightAlsoWhenRolledBack() throws Exception {
        start(ReplicationLevel.RAIDB_2, RULES);
        try (Session s = rm.openSession("u")) {
            createSchema(s);
            update(s, "CREATE TABLE big_archive (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO big_archive VALUES (1)");
            assertEquals(List.of("1|"), query(s, "SELECT COUNT(*) FROM big_archive"), "a read right after CREATE");
            update(s, "ALTER TABLE big_archive RENAME TO big_history");
            assertEquals(List.of("1|"), query(s, "SELECT COUNT(*) FROM big_history"));
            update(s, "DROP TABLE big_history");
            assertFalse(tablesOn("b1").contains("big_history"));
            assertThrows(SQLException.class, () -> query(s, "SELECT COUNT(*) FROM big_history"));

            s.setAutoCommit(false);
            update(s, "CREATE TABLE solo_tmp (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO solo_tmp VALUES (1)");
            assertEquals(List.of("1|"), query(s, "SELECT COUNT(*) FROM solo_tmp"), "inside the transaction");
            update(s, "DROP TABLE hot_items");
            s.rollback();
            s.setAutoCommit(true);
            assertEquals(Set.of("hot_items", "solo_notes"), tablesOn("b3"), "the rollback undid both");
            assertEquals(List.of("0|"), query(s, "SELECT COUNT(*) FROM hot_items"), "hot_items is known again");
            SQLException gone = assertThrows(SQLException.class, () -> query(s, "SELECT COUNT(*) FROM solo_tmp"));
            assertTrue(gone.getMessage().contains("no such table"), gone.getMessage());
        }
        assertTrue(rm.backendStates().values().stream().allMatch(st -> st == BackendState.ENABLED),
                "errors on tables that do not exist disable nobody: " + rm.backendStates());
    }

    @Test
    void theSameWorkloadGivesTheSameResultsUnderEveryLevel() throws Exception {
        List<List<String>> results = new ArrayList<>();
        for (ReplicationLevel level : List.of(ReplicationLevel.RAIDB_0, ReplicationLevel.RAIDB_1, ReplicationLevel.RAIDB_2)) {
            dir = dir.resolve(level.name());
            java.nio.file.Files.createDirectories(dir);
            start(level, level == ReplicationLevel.RAIDB_2 ? RULES : List.of());
            List<String> out = new ArrayList<>();
            try (Session s = rm.openSession("u")) {
                update(s, "CREATE TABLE hot_items (id INTEGER PRIMARY KEY, name TEXT, price INTEGER)");
                update(s, "CREATE TABLE big_log (id INTEGER PRIMARY KEY, item INTEGER, note TEXT)");
                Random random = new Random(5);
                for (int i = 0; i < 50; i++) {
                    update(s, "INSERT INTO hot_items VALUES (?, ?, ?)", i, "item" + i, random.nextInt(100));
                }
                s.setAutoCommit(false);
                for (int i = 0; i < 30; i++) {
                    update(s, "INSERT INTO big_log VALUES (?, ?, ?)", i, random.nextInt(50), "e" + i);
                }
                update(s, "UPDATE hot_items SET price = price + 1 WHERE id < 10");
                s.commit();
                update(s, "DELETE FROM big_log WHERE id % 4 = 0");
                s.setAutoCommit(true);
                out.addAll(query(s, "SELECT COUNT(*), SUM(price) FROM hot_items"));
                out.addAll(query(s, "SELECT id, item, note FROM big_log ORDER BY id"));
                if (level != ReplicationLevel.RAIDB_0) {
                    out.addAll(query(s, "SELECT h.name, COUNT(*) FROM hot_items h JOIN big_log l ON l.item = h.id"
                            + " GROUP BY h.name ORDER BY h.name"));
                }
            }
            if (level == ReplicationLevel.RAIDB_0) {
                // each table on exactly one backend
                for (String t : List.of("hot_items", "big_log")) {
                    int holders = 0;
                    for (String b : ALL) {
                        holders += tablesOn(b).contains(t) ? 1 : 0;
                    }
                    assertEquals(1, holders, t + " under RAIDb-0");
                }
            }
            rm.close();
            rm = null;
            results.add(out);
            dir = dir.getParent();
        }
        assertEquals(results.get(1).subList(0, results.get(0).size()), results.get(0), "RAIDb-0 vs RAIDb-1");
        assertEquals(results.get(1), results.get(2), "RAIDb-2 vs RAIDb-1");
    }

    @Test
    void aConcurrentWorkloadLeavesEachTableIdenticalExactlyWhereItBelongs() throws Exception {
        start(ReplicationLevel.RAIDB_2, RULES);
        try (Session s = rm.openSession("u")) {
            createSchema(s);
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> futures = new ArrayList<>();
        for (int client = 0; client < 8; client++) {
            int id = client;
            futures.add(pool.submit(() -> {
                Random random = new Random(id);
                try (Session s = rm.openSession("u")) {
                    for (int i = 0; i < 40; i++) {
                        int key = id * 1000 + i;
                        switch (random.nextInt(5)) {
                            case 0 -> update(s, "INSERT INTO hot_items VALUES (?, ?, ?)", key, "i" + key, random.nextInt(9));
                            case 1 -> update(s, "INSERT INTO big_log VALUES (?, ?, ?)", key, random.nextInt(50), "x");
                            case 2 -> update(s, "INSERT INTO solo_notes VALUES (?, ?)", key, "note");
                            case 3 -> {
                                s.setAutoCommit(false);
                                update(s, "UPDATE hot_items SET price = price + 1 WHERE price < 5");
                                update(s, "INSERT INTO big_log VALUES (?, ?, ?)", key, 1, "tx");
                                if (random.nextBoolean()) {
                                    s.commit();
                                } else {
                                    s.rollback();
                                }
                                s.setAutoCommit(true);
                            }
                            default -> query(s, "SELECT COUNT(*) FROM hot_items h JOIN big_log l ON l.item = h.id");
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();
        rm.close();
        rm = null;
        assertIdenticalOn("hot_items", ALL);
        assertIdenticalOn("big_log", List.of("b1", "b2"));
        assertFalse(tablesOn("b3").contains("big_log") || tablesOn("b4").contains("big_log"));
        assertEquals(Set.of("hot_items", "solo_notes"), tablesOn("b3"));
        assertFalse(tablesOn("b1").contains("solo_notes") || tablesOn("b4").contains("solo_notes"));
    }

    private void assertIdenticalOn(String table, List<String> holders) throws SQLException {
        String expected = cluster.checksum(holders.get(0), table, "id");
        for (String b : holders) {
            assertEquals(expected, cluster.checksum(b, table, "id"), table + " on " + b);
        }
    }

    @Test
    void unreadableStatementsGoEverywhereAndAreCounted() throws Exception {
        start(ReplicationLevel.RAIDB_2, RULES);
        try (Session s = rm.openSession("u")) {
            createSchema(s);
            long before = rm.statistics().unparsedStatements();
            long[] counts = new long[4];
            for (int i = 0; i < 4; i++) {
                counts[i] = FaultyDriver.fault(ALL.get(i)).executions.get();
            }
            update(s, "PRAGMA user_version = 7");
            assertEquals(before + 1, rm.statistics().unparsedStatements());
            for (int i = 0; i < 4; i++) {
                assertEquals(counts[i] + 1, FaultyDriver.fault(ALL.get(i)).executions.get(), ALL.get(i));
            }
        }
    }
}
