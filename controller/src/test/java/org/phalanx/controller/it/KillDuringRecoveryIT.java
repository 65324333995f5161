package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.ControllerMain;
import org.phalanx.testkit.db.DatabaseServer;
import org.phalanx.testkit.db.SqliteFiles;
import org.phalanx.testkit.db.TestDatabases;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * Issue 15, exactly-once replay across any crash: a controller process serving three backends
 * (two SQLite files and a PostgreSQL database; outside CI, without a PostgreSQL server, a third
 * SQLite file, said so on the output) under a concurrent write workload is killed with SIGKILL at
 * random moments of an operator's enable (a disabled backend with a backlog to replay), restore
 * (a dump of a live backend onto a disabled one) and checkpoint-and-dump, 20 times, with scheduled
 * checkpoints every 200 writes throughout. After each kill the controller is started again and the
 * operator does only what docs/operations.md says to do after a crash ("An operator action the
 * crash interrupted"), over JMX; then every replica must be identical, every acknowledged
 * increment there exactly once (the requests the kill interrupted are in doubt: at most once),
 * nothing of a rolled-back transaction there.
 *
 * <p>Each operation is first run once to the end to measure it; a kill then lands at a random
 * point within its measured length. A kill that came after the operation had answered is
 * repeated (up to 10 more rounds), so that 20 land during one. The random seed is printed;
 * {@code -Dphalanx.killSeed=N} repeats a run's choices, {@code -Dphalanx.kills=N} changes the
 * number of kills.
 */
class KillDuringRecoveryIT {
    private static final List<String> BACKENDS = List.of("b1", "b2", "b3");
    private static final int CLIENTS = 4;
    private static final int KILLS = Integer.getInteger("phalanx.kills", 20);
    /** Kills whose operation had finished already are repeated, up to this many times in all. */
    private static final int EXTRA_ROUNDS = 10;
    /** Requests answered while a backend is disabled, for its enable to replay. */
    private static final int BACKLOG = 200;
    /** Rows that give dumps and restores some length. */
    private static final int FILLER_ROWS = 3000;

    private enum Operation { ENABLE, RESTORE, DUMP }

    private static final String PG_DATABASE = "phalanx_kill_it";

    @TempDir
    Path dir;
    private SqliteFiles backends;
    /** b3's URL: a PostgreSQL database, or a SQLite file without the server. */
    private String b3Url;
    private boolean b3IsPostgres;
    private ControllerProcess controller;
    private ControllerJmx jmx;
    private int port;
    private int lifetime;
    private final ExecutorService operator = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() throws InterruptedException {
        if (jmx != null) {
            jmx.close();
        }
        if (controller != null) {
            controller.process().destroyForcibly().waitFor(1, TimeUnit.MINUTES);
        }
        operator.shutdownNow();
        if (b3IsPostgres) {
            TestDatabases.dropPostgres(PG_DATABASE);
        }
    }

    /** b3 on PostgreSQL when the server answers (it must under PHALANX_REQUIRE_SERVERS=1), else a SQLite file. */
    private void chooseB3() {
        java.util.Optional<String> unavailable = DatabaseServer.POSTGRESQL.unavailable();
        if (unavailable.isPresent() && !DatabaseServer.required()) {
            System.out.println("KillDuringRecoveryIT: b3 is a SQLite file: " + unavailable.get());
            b3Url = backends.url("b3");
            return;
        }
        b3Url = TestDatabases.createPostgres(PG_DATABASE);
        b3IsPostgres = true;
    }

    private void writeVirtualDatabase() throws IOException {
        StringBuilder b = new StringBuilder();
        for (String name : BACKENDS) {
            String url = name.equals("b3") ? b3Url : backends.url(name);
            b.append("    <backend name=\"").append(name).append("\" url=\"").append(url).append('"')
                    .append(name.equals("b3") && b3IsPostgres ? " user=\"postgres\" password=\"\"" : "")
                    .append(" poolSize=\"40\"/>\n");
        }
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb" sqlDialect="sqlite">
                  <users><user name="app" password="secret"/></users>
                  <backends>
                %s  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="first" balancing="least-pending" lockTimeout="20s"/>
                  <recoveryLog dir="log" dumpDir="dumps" checkpointEveryWrites="200"/>
                </virtualDatabase>
                """.formatted(b));
    }

    /** A connection straight to a backend, bypassing Phalanx. */
    private Connection direct(String backend) throws SQLException {
        return backend.equals("b3") && b3IsPostgres ? TestDatabases.connect(b3Url) : backends.direct(backend);
    }

    private void start() throws Exception {
        port = Ports.free();
        int jmxPort = Ports.free();
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <jmx address="127.0.0.1" port="%d"><admin user="admin" password="s3cret"/></jmx>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port, jmxPort));
        String logConfig = ControllerMain.class.getResource("/" + org.phalanx.controller.LoggingSetup.CONFIGURATION).toString(); // the controller's own: INFO
        controller = ControllerProcess.java(ControllerMain.class.getName(), dir.resolve("controller.xml"))
                .systemProperty("log4j2.configurationFile", logConfig)
                .directory(dir).output(dir.resolve("controller-" + lifetime++ + ".out"))
                .awaitPorts(port, jmxPort).awaitStarted().startTimeout(Duration.ofMinutes(2)).start();
        jmx = ControllerJmx.connect(jmxPort, "admin", "s3cret", "vdb");
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + port + "/vdb?user=app&password=secret");
    }

    /** The last lines of the controller's output, and of the one killed before it. */
    private String output() {
        String killed = "";
        Path before = dir.resolve("controller-" + (lifetime - 2) + ".out");
        if (lifetime >= 2 && Files.exists(before)) {
            try {
                List<String> lines = Files.readAllLines(before);
                killed = "\n--- the controller killed before it (last lines) ---\n"
                        + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
            } catch (IOException | RuntimeException e) {
                killed = "\n(" + before + ": " + e + ")";
            }
        }
        return killed + "\n--- controller output (last lines) ---\n" + controller.outputTail(60);
    }

    /** What one round does: the operation under test, started after its preparation. */
    private record Round(Operation operation, String target, String dump, Callable action) {
    }

    @FunctionalInterface
    private interface Callable {
        void call() throws Exception;
    }

    @Test
    void killsDuringEnableRestoreAndDumpLeaveEveryReplicaIdenticalWithNothingAcknowledgedMissing() throws Exception {
        long seed = Long.getLong("phalanx.killSeed", System.currentTimeMillis());
        System.out.println("KillDuringRecoveryIT: seed " + seed + " (repeat with -Dphalanx.killSeed=" + seed + ")");
        Random random = new Random(seed);
        long began = System.nanoTime();
        backends = new SqliteFiles(dir, BACKENDS.toArray(new String[0]));
        chooseB3();
        writeVirtualDatabase();
        start();
        CounterWorkload workload = new CounterWorkload(CLIENTS);
        try (Connection c = connect()) {
            workload.createTables(c);
            createFiller(c);
        }

        // each operation once to the end: how long it takes, so that the kills land inside it
        Map<Operation, Long> length = new EnumMap<>(Operation.class);
        int[] serial = {0};
        for (Operation op : Operation.values()) {
            CounterWorkload.Run clients = workload.start(this::connect);
            clients.awaitProgress(30, this::output);
            Round round = prepare(op, random, serial, clients);
            long t0 = System.nanoTime();
            round.action().call();
            length.put(op, Math.max(1, (System.nanoTime() - t0) / 1_000_000));
            completeAfterCrash(round); // what the operator does next anyway (the restored backend is enabled)
            clients.stop();
        }
        System.out.println("KillDuringRecoveryIT: operations take " + length + " ms");

        List<Operation> plan = new ArrayList<>();
        for (int i = 0; i < KILLS; i++) {
            plan.add(Operation.values()[i % Operation.values().length]);
        }
        Collections.shuffle(plan, random);
        int landed = 0;
        Map<String, Integer> outcomes = new java.util.TreeMap<>();
        for (int r = 0; r < plan.size(); r++) {
            Operation op = plan.get(r);
            CounterWorkload.Run clients = workload.start(this::connect);
            clients.awaitProgress(30, this::output);
            Round round = prepare(op, random, serial, clients);
            long delay = (long) (length.get(op) * (0.1 + 0.9 * random.nextDouble()));
            long t0 = System.nanoTime();
            Future<Long> running = operator.submit(() -> {
                round.action().call();
                return (System.nanoTime() - t0) / 1_000_000;
            });
            Thread.sleep(delay);
            boolean during = !running.isDone();
            clients.killing();
            controller.process().destroyForcibly(); // SIGKILL: no shutdown hook, nothing flushed
            assertTrue(controller.process().waitFor(1, TimeUnit.MINUTES), "the controller did not die");
            jmx.close();
            String what = "kill " + (r + 1) + " (" + op + " of " + round.target() + (round.dump() == null ? ""
                    : ", dump " + round.dump()) + ", " + delay + " ms in, " + (during ? "during it" : "after it") + ")";
            try {
                long took = running.get(1, TimeUnit.MINUTES);
                if (!during) {
                    length.put(op, Math.max(1, took)); // it was shorter this time: aim within that
                }
            } catch (ExecutionException killed) {
                if (!during) {
                    fail(what + ": the operation failed by itself: " + killed.getCause() + output());
                }
            }
            clients.awaitClients();
            if (during) {
                landed++;
            } else if (plan.size() < KILLS + EXTRA_ROUNDS) {
                plan.add(op); // that one came too late: another of the same
            }
            start();
            String found = completeAfterCrash(round);
            outcomes.merge(op + (during ? "" : " (after it)") + ": " + found, 1, Integer::sum);
            what += ": " + found;
            System.out.println("KillDuringRecoveryIT: " + what + " [" + (System.nanoTime() - began) / 1_000_000_000
                    + " s]");
            check(workload, what);
        }
        System.out.println("KillDuringRecoveryIT: " + landed + " of " + plan.size() + " kills landed during the"
                + " operation; after restart: " + outcomes);

        controller.close(); // a clean stop, then the backends once more
        controller = null;
        assertIdentical("after the clean stop");
        workload.checkAndSettle(backends, "b1", "after the clean stop");
        assertTrue(workload.committedTransactions() > 100, "the workload ran: " + workload.committedTransactions());
    }

    private static void createFiller(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE filler (id INTEGER PRIMARY KEY, v VARCHAR(200) NOT NULL)");
        }
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO filler VALUES (?, ?)")) {
            for (int i = 0; i < FILLER_ROWS; i++) {
                ps.setInt(1, i);
                ps.setString(2, ("row " + i + " ").repeat(10));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        c.commit();
        c.setAutoCommit(true);
    }

    /**
     * Prepares an operation on a random backend, as an operator would, under the running
     * workload: an enable needs a disabled backend with a backlog; a restore a disabled backend
     * and a dump of a live one, taken a little earlier.
     */
    private Round prepare(Operation op, Random random, int[] serial, CounterWorkload.Run clients) throws Exception {
        List<String> order = new ArrayList<>(BACKENDS);
        Collections.shuffle(order, random);
        String target = order.get(0);
        String source = order.get(1);
        // SQLite's own format between SQLite backends, now and then; the portable one otherwise
        String format = random.nextBoolean() || (b3IsPostgres && (target.equals("b3") || source.equals("b3")))
                ? "" : "sqlite-native";
        int n = ++serial[0];
        switch (op) {
            case ENABLE -> {
                jmx.disableBackend(target);
                clients.awaitProgress(BACKLOG, this::output);
                return new Round(op, target, null, () -> jmx.enableBackend(target));
            }
            case RESTORE -> {
                String dump = "restore-" + n;
                jmx.disableBackend(target);
                clients.awaitProgress(20, this::output);
                jmx.backup(source, dump, format);
                clients.awaitProgress(60, this::output);
                return new Round(op, target, dump, () -> jmx.restore(target, dump, true));
            }
            case DUMP -> {
                String dump = "dump-" + n;
                return new Round(op, source, dump, () -> {
                    jmx.checkpoint("before-" + dump);
                    jmx.backup(source, dump, format);
                });
            }
            default -> throw new IllegalStateException();
        }
    }

    /**
     * What docs/operations.md tells the operator to do after a crash during each operation, and
     * the states it says to expect; returns what was found.
     */
    private String completeAfterCrash(Round round) throws Exception {
        String log = controller.output();
        String unanswered = "";
        for (String b : BACKENDS) {
            if (!b.equals(round.target()) && log.contains("backend " + b + " did not answer at start")) {
                // slower to open than the pool's timeout on a loaded machine: it waits for enableBackend
                assertEquals("DISABLED", jmx.states().get(b), output());
                jmx.enableBackend(b);
                unanswered += b + " did not answer at start: enabled; ";
            }
        }
        Map<String, String> states = jmx.states();
        String found;
        switch (round.operation()) {
            case ENABLE -> {
                if (states.get(round.target()).equals("DISABLED") && jmx.checkpointOf(round.target()) >= 0) {
                    found = log.contains("the enable the stop cut short could not be completed")
                            ? "completing the enable at start failed: enabled again"
                            : "the enable had not begun: enabled again";
                    jmx.enableBackend(round.target());
                } else {
                    assertEquals(allEnabled(), states, "an enable the crash cut short is completed at start" + output());
                    found = log.contains("the enable the stop cut short is complete")
                            ? "the enable was resumed at start" : "it was enabled already";
                }
            }
            case DUMP -> {
                assertEquals(allEnabled(), states, "nothing to do" + output());
                // the dump is there whole, or not at all, and then nothing of it is left
                Map<String, String> dumps = jmx.listDumps();
                if (dumps.containsKey(round.dump())) {
                    assertEquals("", dumps.get(round.dump()), round.dump() + output());
                    found = "the dump was complete";
                } else {
                    assertTrue(!jmx.checkpoints().containsKey("dump-" + round.dump()),
                            "the checkpoint of a dump that does not exist is released: " + jmx.checkpoints() + output());
                    found = "no dump, its checkpoint released";
                }
                try (var listing = Files.list(dir.resolve("dumps"))) {
                    assertEquals(List.of(), listing.filter(f -> f.getFileName().toString().startsWith(".")).toList(),
                            "no temporary file of a dump cut short");
                }
            }
            case RESTORE -> {
                for (String b : BACKENDS) {
                    assertEquals(b.equals(round.target()) ? "DISABLED" : "ENABLED", states.get(b), b + output());
                }
                if (jmx.checkpointOf(round.target()) < 0) {
                    found = "failed: restored again, then enabled";
                    jmx.restore(round.target(), round.dump(), true); // the restore was cut short: again
                } else {
                    found = log.contains("its record shows the restore complete")
                            ? "the record showed the restore complete: enabled"
                            : "at a checkpoint: enabled";
                }
                jmx.enableBackend(round.target());
            }
            default -> throw new IllegalStateException();
        }
        assertEquals(allEnabled(), jmx.states(), output());
        return unanswered + found;
    }

    private static Map<String, String> allEnabled() {
        Map<String, String> all = new java.util.TreeMap<>();
        BACKENDS.forEach(b -> all.put(b, "ENABLED"));
        return all;
    }

    /** With no client writing: the virtual database serves, and the backend files agree with each other and the ledger. */
    private void check(CounterWorkload workload, String what) throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM filler")) {
            rs.next();
            assertEquals(FILLER_ROWS, rs.getInt(1), what);
        }
        try {
            assertIdentical(what);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + output(), e);
        }
        workload.checkAndSettle(backends, "b1", what);
    }

    /** Every table's rows, read straight from each backend, are the same on all. */
    private void assertIdentical(String what) throws SQLException {
        for (String table : List.of("counters", "items", "filler")) {
            String expected = null;
            for (String b : BACKENDS) {
                try (Connection c = direct(b); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY id")) {
                    String sum = SqliteFiles.checksum(rs);
                    if (expected == null) {
                        expected = sum;
                    } else {
                        assertEquals(expected, sum, what + ": table " + table + " differs between b1 and " + b);
                    }
                }
            }
        }
    }
}
