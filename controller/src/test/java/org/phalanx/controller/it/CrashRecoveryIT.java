package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.controller.ControllerMain;
import org.phalanx.recoverylog.ControllerTables;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.recoverylog.JdbcRecoveryLog;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.testkit.db.SqliteFiles;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * Done-when 2 of issue 6: a controller process is killed with SIGKILL in the middle of a
 * concurrent write workload, with waitPolicy="first" and one slow backend still far behind; the
 * restarted controller brings every backend to exactly the logged state. Checked on the backend
 * files: all identical, every acknowledged increment counted exactly once, nothing of a
 * rolled-back transaction.
 */
class CrashRecoveryIT {
    private static final List<String> BACKENDS = List.of("b1", "b2", "b3");
    private static final int CLIENTS = 4;
    private static final Pattern RECOVERED = Pattern.compile("backend (\\w+) recovered after the crash \\((\\d+) missing");

    @TempDir
    Path dir;
    private int port;

    private void writeConfig(String recoveryLog) throws IOException {
        port = Ports.free();
        // a slow backend under 'first' holds a pooled connection per transaction queued on it
        PhalanxCluster.writeVirtualDatabase(dir, new SqliteFiles(dir, BACKENDS.toArray(new String[0])), "first",
                recoveryLog, 100);
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <jmx port="0"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port));
    }

    /** A controller in a process of its own, from this test's classpath (the fault injector included). */
    private ControllerProcess launch(String output, long slowBackendDelayMillis) throws Exception {
        String logConfig = ControllerMain.class.getResource("/" + org.phalanx.controller.LoggingSetup.CONFIGURATION).toString(); // the controller's own: INFO
        return ControllerProcess.java(ControllerMain.class.getName(), dir.resolve("controller.xml"))
                .systemProperty("log4j2.configurationFile", logConfig)
                .systemProperty("faulty.b3.delayMillis", slowBackendDelayMillis)
                .directory(dir).output(dir.resolve(output)).awaitPorts(port).startTimeout(Duration.ofSeconds(60)).start();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + port + "/vdb?user=app&password=secret");
    }

    private long highestApplied(SqliteFiles files, String backend) {
        try (Connection c = files.direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT MAX(position) FROM " + ControllerTables.APPLIED)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException busy) {
            return -1;
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"<recoveryLog dir=\"log\"/>", "<recoveryLog url=\"jdbc:sqlite:log.db\" tablePrefix=\"vdb_\"/>"})
    void aKilledControllerRestartsWithEveryBackendAtExactlyTheLoggedState(String recoveryLog) throws Exception {
        writeConfig(recoveryLog);
        SqliteFiles files = new SqliteFiles(dir, BACKENDS.toArray(new String[0]));
        ControllerProcess controller = launch("before-kill.out", 15);
        CounterWorkload workload = new CounterWorkload(CLIENTS);
        try {
            try (Connection c = connect()) {
                workload.createTables(c);
            }
            CounterWorkload.Run clients = workload.start(this::connect);
            // under way, with the slow backend well behind the others
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!(clients.done.get() >= 200 && highestApplied(files, "b1") - highestApplied(files, "b3") >= 40)) {
                assertTrue(System.nanoTime() < deadline, "the workload did not get going: " + clients.done.get()
                        + " requests, " + Files.readString(dir.resolve("before-kill.out")));
                Thread.sleep(20);
            }
            clients.killing();
            controller.process().destroyForcibly(); // SIGKILL: no shutdown hook, nothing flushed
            assertTrue(controller.process().waitFor(1, TimeUnit.MINUTES));
            clients.awaitClients();
        } finally {
            controller.process().destroyForcibly();
        }

        ControllerProcess restarted = launch("after-kill.out", 0);
        try {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE counters SET n = n + 1 WHERE id = 0"); // serving, on every backend
                workload.acknowledge(0, 1);
            }
            restarted.process().destroy(); // SIGTERM: a clean stop
            assertTrue(restarted.process().waitFor(1, TimeUnit.MINUTES));
        } finally {
            restarted.process().destroyForcibly();
        }
        String log = Files.readString(dir.resolve("after-kill.out"));
        assertTrue(log.contains("did not stop cleanly"), log);
        Matcher m = RECOVERED.matcher(log);
        Map<String, Long> replayed = new java.util.HashMap<>();
        while (m.find()) {
            replayed.put(m.group(1), Long.parseLong(m.group(2)));
        }
        assertEquals(Set.copyOf(BACKENDS), replayed.keySet(), "every backend recovered: " + log
                + "\nbefore the kill:\n" + Files.readString(dir.resolve("before-kill.out")).lines()
                .filter(l -> l.contains("ERROR")).limit(5).toList());
        assertTrue(replayed.get("b3") > 0, "the slow backend was behind and caught up by replay: " + replayed);
        try (RecoveryLog recovery = recoveryLog.contains("dir=")
                ? new FileRecoveryLog(dir.resolve("log"))
                : new JdbcRecoveryLog("jdbc:sqlite:" + dir.resolve("log.db"), null, null, "vdb_")) {
            for (String b : BACKENDS) {
                assertTrue(recovery.states().get("backend." + b).startsWith("synced@"),
                        b + " was enabled until the clean stop: " + recovery.states());
            }
        }

        PhalanxClusterChecks.identical(dir, BACKENDS, "counters", "id");
        PhalanxClusterChecks.identical(dir, BACKENDS, "items", "id");
        workload.checkAndSettle(files, "b3", "after the kill");
        assertTrue(workload.committedTransactions() > 20, "transactions committed: " + workload.committedTransactions());
    }

    /** The record of applied positions is the controller's: clients do not see it in the metadata. */
    @Test
    void theRecordTableIsNotInTheMetadataClientsSee() throws Exception {
        try (PhalanxCluster cluster = PhalanxCluster.withRecoveryLog(dir, "all", "<recoveryLog dir=\"log\"/>",
                BACKENDS.toArray(new String[0]))) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
                s.executeUpdate("INSERT INTO t VALUES (1)");
                DatabaseMetaData md = c.getMetaData();
                List<String> tables = new ArrayList<>();
                try (ResultSet rs = md.getTables(null, null, "%", null)) {
                    while (rs.next()) {
                        tables.add(rs.getString("TABLE_NAME").toLowerCase(java.util.Locale.ROOT));
                    }
                }
                assertTrue(tables.contains("t"), tables.toString());
                assertFalse(tables.contains(ControllerTables.APPLIED), tables.toString());
                try (ResultSet rs = md.getColumns(null, null, ControllerTables.APPLIED, "%")) {
                    assertFalse(rs.next(), "no columns of the record table");
                }
            }
            try (Connection c = cluster.files.direct("b1"); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + ControllerTables.APPLIED)) {
                rs.next();
                assertTrue(rs.getInt(1) >= 2, "yet it is there on the backend, one row per unit");
            }
        }
    }
}
