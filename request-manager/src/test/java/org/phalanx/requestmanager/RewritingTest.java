package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.RewriteRule;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.engine.Engine;
import org.phalanx.testing.SqliteCluster;

/** Rewriting rules apply per backend at execution, on reads, writes and replay alike. */
class RewritingTest {
    @TempDir
    Path dir;
    private RequestManager rm;

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
    }

    @Test
    void rulesRewriteStatementsOnTheBackendsTheyTarget() throws Exception {
        SqliteCluster files = new SqliteCluster(dir, "a", "b");
        List<RewriteRule> onB = List.of(
                RewriteRule.regex("'from-app'", "'rewritten-on-b'", null, "b"),
                RewriteRule.exact("SELECT label FROM t", "SELECT label || '!' FROM t", null, "b"),
                RewriteRule.regex("no such text", "never", Engine.POSTGRESQL, null));
        List<BackendConfig> configs = new ArrayList<>();
        for (BackendConfig c : files.backendConfigs()) {
            List<RewriteRule> own = onB.stream().filter(r -> r.appliesTo(c.name(), Engine.ofUrl(c.url()))).toList();
            configs.add(c.toBuilder().rewrites(own).build());
        }
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(5)).analysisCacheSize(100)
                .recovery(new RecoveryConfig(new FileRecoveryLog(dir.resolve("log")), true)).build();
        rm = new RequestManager("rules", config, configs);
        rm.start();
        try (Session s = rm.openSession("u")) {
            s.execute(Request.of("CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT)")).close();
            s.execute(Request.of("INSERT INTO t VALUES (1, 'from-app')")).close();
        }
        assertEquals("from-app", label(files, "a"));
        assertEquals("rewritten-on-b", label(files, "b"));
        assertEquals("from-app", readThrough("b"), "a read on a runs as written");
        assertEquals("rewritten-on-b!", readThrough("a"), "an exact rule replaces the whole read on b");

        // replay onto b rewrites the logged text again
        rm.disableBackend("b");
        try (Session s = rm.openSession("u")) {
            s.execute(Request.of("INSERT INTO t VALUES (2, 'from-app')")).close();
        }
        rm.enableBackend("b");
        try (Connection c = files.direct("b"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT label FROM t WHERE id = 2")) {
            rs.next();
            assertEquals("rewritten-on-b", rs.getString(1));
        }
    }

    private String readThrough(String disabled) throws SQLException {
        rm.disableBackend(disabled);
        try (Session s = rm.openSession("u"); Result r = s.execute(Request.of("SELECT label FROM t"))) {
            ResultSet rs = ((Result.Rows) r).resultSet();
            rs.next();
            return rs.getString(1);
        } finally {
            rm.enableBackend(disabled);
        }
    }

    private static String label(SqliteCluster files, String backend) throws SQLException {
        try (Connection c = files.direct(backend); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT label FROM t WHERE id = 1")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
