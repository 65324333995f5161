package org.phalanx.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.requestmanager.RequestManager;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.testkit.disk.LimitedDisk;

/**
 * Another controller as a backend keeps no record of applied positions, yet an auto-commit write
 * must not commit there before its entry is in this controller's log: when the log refuses the
 * entry (its disk is full), the write is nowhere, on the sub-controller's database too.
 */
class NestedLogDiskFullTest {
    @TempDir
    Path dir;
    private final LimitedDisk disk = new LimitedDisk();
    private Controller sub;
    private RequestManager top;

    @AfterEach
    void stop() {
        disk.free();
        if (top != null) {
            top.close();
        }
        if (sub != null) {
            sub.stop();
        }
    }

    private void start() throws Exception {
        Files.writeString(dir.resolve("sub-vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="sub">
                  <users><user name="app" password="secret"/></users>
                  <backends>
                    <backend name="leaf" url="jdbc:sqlite:leaf.db"/>
                  </backends>
                </virtualDatabase>
                """);
        Files.writeString(dir.resolve("sub.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="0"/>
                  <virtualDatabase file="sub-vdb.xml"/>
                </controller>
                """);
        sub = Controller.fromConfig(dir.resolve("sub.xml"));
        sub.start();
        List<BackendConfig> backends = List.of(
                BackendConfig.builder("sub", "jdbc:phalanx://127.0.0.1:" + sub.port() + "/sub").login("app", "secret").build(),
                BackendConfig.builder("lite", "jdbc:sqlite:" + dir.resolve("lite.db")).build());
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(5))
                .recovery(new RecoveryConfig(new FileRecoveryLog(dir.resolve("log"),
                        FileRecoveryLog.DEFAULT_SEGMENT_SIZE, disk::open), true)).build();
        top = new RequestManager("top", config, backends);
        top.start();
    }

    private static void update(Session s, String sql) throws SQLException {
        try (Result r = s.execute(Request.of(sql))) {
            // an update count
        }
    }

    private TreeSet<Long> ids(String file) throws SQLException {
        TreeSet<Long> ids = new TreeSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(file));
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM t")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    @Test
    void aWriteTheLogRefusesIsNotCommittedOnASubController() throws Exception {
        start();
        try (Session s = top.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO t VALUES (1)");
            disk.fill();
            SQLException refused = assertThrows(SQLException.class, () -> update(s, "INSERT INTO t VALUES (2)"));
            assertEquals(SqlState.DISK_FULL.code(), refused.getSQLState(), refused.toString());
            disk.free();
            update(s, "INSERT INTO t VALUES (3)");
        }
        top.close();
        top = null;
        TreeSet<Long> expected = new TreeSet<>(List.of(1L, 3L));
        assertEquals(expected, ids("leaf.db"), "the sub-controller's database holds what was acknowledged, only");
        assertEquals(expected, ids("lite.db"));
    }
}
