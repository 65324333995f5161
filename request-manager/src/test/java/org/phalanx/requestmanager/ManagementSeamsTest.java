package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.BackendView;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.CacheConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.stats.BackendStatistics;
import org.phalanx.requestmanager.stats.StatementStatistics;
import org.phalanx.testkit.jdbc.FaultyDriver;
import org.phalanx.testing.SqliteCluster;

/** What the management interface reads from a request manager: state changes, per-backend and per-template counters. */
class ManagementSeamsTest {
    @TempDir
    Path dir;
    private RequestManager rm;
    private final List<String> events = new CopyOnWriteArrayList<>();

    private SqliteCluster start(CacheConfig cache) throws SQLException {
        SqliteCluster cluster = new SqliteCluster(dir, "m1", "m2");
        rm = new RequestManager("managed", RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(10)).analysisCacheSize(1000).cache(cache).build(), cluster.backendConfigs());
        rm.addBackendListener((b, from, to, reason, failure) -> events.add(b.name() + ":" + from + "->" + to
                + (failure ? " failure" : "")));
        rm.start();
        return cluster;
    }

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
    }

    private static void run(Session s, String sql, Object... params) throws SQLException {
        s.execute(Request.of(sql, params)).close();
    }

    @Test
    void listenersHearStartOperatorDisableAndFailure() throws SQLException {
        start(null);
        assertEquals(List.of("m1:DISABLED->ENABLED", "m2:DISABLED->ENABLED"), events);
        events.clear();
        rm.disableBackend("m1");
        assertEquals(List.of("m1:ENABLED->DISABLED"), events);
        rm.enableBackend("m1");
        assertEquals("m1:DISABLED->ENABLED", events.get(events.size() - 1));
        events.clear();

        try (Session s = rm.openSession("u")) {
            run(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            FaultyDriver.fault("m2").broken = true;
            try {
                run(s, "INSERT INTO t VALUES (1)");
            } catch (SQLException expected) {
                // the write policy 'all' may report the divergence; the backend leaves service either way
            } finally {
                FaultyDriver.fault("m2").broken = false;
            }
        }
        assertEquals(List.of("m2:ENABLED->DISABLED failure"), events);
    }

    @Test
    void backendsCountReadsWritesAndTime() throws SQLException {
        start(null);
        try (Session s = rm.openSession("u")) {
            run(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            run(s, "INSERT INTO t VALUES (1)");
            for (int i = 0; i < 4; i++) {
                run(s, "SELECT * FROM t");
            }
        }
        long reads = 0;
        for (BackendView b : rm.backends()) {
            BackendStatistics.Snapshot snap = b.statistics().snapshot();
            assertEquals(2, snap.writes(), "every backend applied the two writes");
            assertTrue(snap.totalNanos() > 0);
            reads += snap.reads();
        }
        assertEquals(4, reads, "each read ran on one backend");
    }

    @Test
    void statementTemplatesCountErrorsAndCacheHits() throws SQLException {
        start(new CacheConfig(1000, 1 << 20, 100, CacheConfig.Granularity.TABLE, List.of(), 0, 0));
        try (Session s = rm.openSession("u")) {
            run(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            run(s, "INSERT INTO t VALUES (1)");
            run(s, "INSERT INTO t VALUES (2)");
            try {
                run(s, "INSERT INTO t VALUES (2)");
            } catch (SQLException duplicate) {
                // counted as an error of its template
            }
            run(s, "SELECT * FROM t WHERE id = 1");
            run(s, "SELECT * FROM t WHERE id = 1");
        }
        List<StatementStatistics.Snapshot> top = rm.topStatements(10);
        StatementStatistics.Snapshot insert = top.get(0);
        assertEquals("INSERT INTO t VALUES (?)", insert.template());
        assertEquals(3, insert.count());
        assertEquals(1, insert.errors());
        StatementStatistics.Snapshot select = top.stream()
                .filter(t -> t.template().equals("SELECT * FROM t WHERE id = ?")).findFirst().orElseThrow();
        assertEquals(2, select.count());
        assertEquals(1, select.cacheHits(), "the second read came from the cache");
    }
}
