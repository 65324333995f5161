package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.ControllerMain;
import org.phalanx.testkit.db.PrivateMariaDb;
import org.phalanx.testkit.db.TestDatabases;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * Done-when 2 of issue 15: a backend's MariaDB server stopped with SIGSTOP under a bank workload.
 * The controller runs in a process of its own with a 256 MB heap; two backends are databases of the
 * shared MariaDB server, the third is the only database of a private server (never stop the shared
 * one). The stopped backend is disabled within its limit, the workload goes on, the controller's
 * heap stays bounded and SIGTERM stops it; after SIGCONT, enable brings it back identical.
 */
class HungBackendIT {
    private static final List<String> BACKENDS = List.of("m1", "m2", "m3");
    private static final int ACCOUNTS = 50;
    private static final int CLIENTS = 6;
    /** Heap in use after a full collection, which the controller stays under while the server is stopped. */
    private static final long HEAP_BOUND = 96L << 20;

    @TempDir
    Path dir;
    private PrivateMariaDb stopped;
    private final Map<String, String> urls = new TreeMap<>();
    private int port;
    private int jmxPort;
    private ControllerProcess controller;

    private void setUp(String limits) throws Exception {
        stopped = PrivateMariaDb.start(dir.resolve("private-mariadb"));
        urls.put("m1", TestDatabases.createMariaDb("hung_m1"));
        urls.put("m2", TestDatabases.createMariaDb("hung_m2"));
        urls.put("m3", stopped.create("bank"));
        port = Ports.free();
        jmxPort = Ports.free();
        StringBuilder backends = new StringBuilder();
        for (String b : BACKENDS) {
            backends.append("    <backend name=\"%s\" url=\"%s\" user=\"root\" password=\"\" poolSize=\"20\" %s/>\n"
                    .formatted(b, urls.get(b), limits));
        }
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends>
                %s  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="majority" lockTimeout="20s"/>
                  <recoveryLog dir="log"/>
                </virtualDatabase>
                """.formatted(backends));
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <jmx address="127.0.0.1" port="%d">
                    <admin user="admin" password="admin"/>
                  </jmx>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port, jmxPort));
    }

    @AfterEach
    void tearDown() {
        if (controller != null) {
            controller.process().destroyForcibly();
        }
        if (stopped != null) {
            stopped.close();
        }
        TestDatabases.dropMariaDb("hung_m1");
        TestDatabases.dropMariaDb("hung_m2");
    }

    private ControllerProcess launch(String output) throws Exception {
        String logConfig = ControllerMain.class.getResource("/" + org.phalanx.controller.LoggingSetup.CONFIGURATION).toString();
        return ControllerProcess.java(ControllerMain.class.getName(), dir.resolve("controller.xml"))
                .jvmOptions("-Xmx256m", "-XX:+ExitOnOutOfMemoryError")
                .systemProperty("log4j2.configurationFile", logConfig)
                .directory(dir).output(dir.resolve(output)).awaitPorts(port, jmxPort)
                .startTimeout(Duration.ofSeconds(90)).start();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + port + "/vdb?user=app&password=secret");
    }

    /** The controller's JMX, as an operator's console reaches it. */
    private ControllerJmx jmx() throws Exception {
        return ControllerJmx.connect(jmxPort, "admin", "admin", "vdb");
    }

    /** Waits for a condition, failing with the message's state once the deadline passes. */
    private static void await(String what, long seconds, java.util.concurrent.Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.call()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting: " + what);
            Thread.sleep(50);
        }
    }

    /** Rows of a table on one backend, straight from its server, in key order. */
    private List<String> rows(String backend, String table) throws SQLException {
        String url = urls.get(backend);
        try (Connection c = backend.equals("m3") ? stopped.connect("bank") : TestDatabases.connect(url);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY id")) {
            List<String> rows = new ArrayList<>();
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(rs.getString(i)).append('|');
                }
                rows.add(row.toString());
            }
            return rows;
        }
    }

    /** Every replica holds the same rows, the total is intact, every acknowledged transfer is there. */
    private void assertIdenticalAndComplete(TransferClients bank) throws SQLException {
        List<String> accounts = rows("m1", "accounts");
        List<String> transfers = rows("m1", "transfers");
        for (String b : BACKENDS) {
            assertEquals(accounts, rows(b, "accounts"), "accounts on " + b);
            assertEquals(transfers, rows(b, "transfers"), "transfers on " + b);
        }
        long total = accounts.stream().mapToLong(r -> Long.parseLong(r.split("\\|")[1])).sum();
        assertEquals(ACCOUNTS * TransferClients.INITIAL, total, "money neither created nor lost");
        Set<String> present = ConcurrentHashMap.newKeySet();
        transfers.forEach(r -> present.add(r.split("\\|")[0]));
        assertTrue(present.containsAll(bank.acknowledged), "every acknowledged transfer is on every replica");
    }

    /** The cluster with these limits on every backend, under the bank workload once it got going. */
    private TransferClients startUnderLoad(String limits) throws Exception {
        setUp(limits);
        controller = launch("controller.out");
        try (Connection c = connect()) {
            TransferClients.createAccounts(c, ACCOUNTS);
        }
        TransferClients bank = new TransferClients(CLIENTS, ACCOUNTS, this::connect);
        await("the workload got going", 60, () -> bank.done.get() >= 100);
        return bank;
    }

    @Test
    void aStoppedServerIsDisabledWithinItsLimitAndComesBackIdentical() throws Exception {
        TransferClients bank = startUnderLoad("statementTimeLimit=\"2s\"");
        try (ControllerJmx jmx = jmx()) {
            stopped.pause();
            long stoppedAt = System.nanoTime();
            await("m3 disabled", 60, () -> "DISABLED".equals(jmx.backend("m3", "State")));
            long disabledAfterMillis = (System.nanoTime() - stoppedAt) / 1_000_000;
            String reason = (String) jmx.backend("m3", "DisabledReason");
            assertTrue(reason.contains("hung"), reason);
            // the limit plus one tick of the detector and the time it takes to see the state here
            assertTrue(disabledAfterMillis < 2000 + 2000, "disabled " + disabledAfterMillis + " ms after the stop");
            bank.assertGoesOn();
            assertEquals(0, jmx.backend("m3", "QueuedWrites"), "nothing kept queued for the stopped server");
            long heap = jmx.heapAfterGc();
            System.out.printf("HungBackendIT: m3 disabled %d ms after SIGSTOP (%s); heap after GC %d MB;"
                    + " %d transfers acknowledged, %d refused so far%n", disabledAfterMillis, reason, heap >> 20,
                    bank.done.get(), bank.errors.get());
            assertTrue(heap < HEAP_BOUND, "heap in use after GC with the server stopped: " + (heap >> 20) + " MB");

            stopped.resume();
            await("m3 enabled", 60, () -> {
                try {
                    jmx.enableBackend("m3");
                    return true;
                } catch (javax.management.MBeanException e) {
                    return false; // still running what it had before the stop: retried
                }
            });
            bank.assertGoesOn();
            bank.stop();
        }
        controller.process().destroy(); // SIGTERM: a clean stop drains every queue
        assertTrue(controller.process().waitFor(2, TimeUnit.MINUTES), "the controller stopped on SIGTERM");
        assertIdenticalAndComplete(bank);
    }

    @Test
    void aServerStoppedPastItsQueueBoundIsDisabledAndSigtermStillStopsTheController() throws Exception {
        TransferClients bank = startUnderLoad("statementTimeLimit=\"0s\" maxQueuedWrites=\"200\"");
        try (ControllerJmx jmx = jmx()) {
            stopped.pause();
            await("m3 disabled", 120, () -> "DISABLED".equals(jmx.backend("m3", "State")));
            String reason = (String) jmx.backend("m3", "DisabledReason");
            assertTrue(reason.contains("maxQueuedWrites"), reason);
            bank.assertGoesOn();
            await("m3's queue freed", 30, () -> (Integer) jmx.backend("m3", "QueuedWrites") == 0);
            bank.stop();
        }
        // with its server still stopped, threads of the controller still wait on it: SIGTERM must not
        controller.process().destroy();
        assertTrue(controller.process().waitFor(2, TimeUnit.MINUTES), "the controller stopped on SIGTERM: "
                + controller.outputTail(20));

        stopped.resume();
        controller = launch("restarted.out");
        try (ControllerJmx jmx = jmx()) {
            assertEquals("DISABLED", jmx.backend("m3", "State"), "m3 stays out until an operator enables it");
            jmx.enableBackend("m3");
            assertEquals("ENABLED", jmx.backend("m3", "State"));
        }
        controller.process().destroy();
        assertTrue(controller.process().waitFor(2, TimeUnit.MINUTES));
        assertIdenticalAndComplete(bank);
    }
}
