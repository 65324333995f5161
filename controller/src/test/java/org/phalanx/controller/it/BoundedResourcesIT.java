package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.ControllerMain;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.FrameIO;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.MessageReader;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.Protocol;
import org.phalanx.testkit.db.TestDatabases;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * Careless and hostile clients all at once against a controller with a 256 MB heap, while a bank
 * workload runs beside them on two PostgreSQL replicas: 8 clients that ask for 60 MB results and
 * never read them, one that streams 2 million rows, and 1,000 connections opened to sit idle. The
 * bank sees no error; the controller stays within its heap (it would exit on running out), is
 * left holding no thread per idle connection, disconnects the clients that do not read, and admits
 * idle connections only up to the per-user cap.
 */
class BoundedResourcesIT {
    private static final String[] DBS = {"phalanx_bounded_1", "phalanx_bounded_2"};
    private static final int STREAM_ROWS = 2_000_000;
    private static final int NON_READERS = 8;
    /**
     * How long the non-readers are left alone before the test reads them: the controller closes a
     * stuck reply within writeTimeout (3 s) plus its watcher's period (1 s); reading earlier would
     * let the stuck write finish, and the test would then wait for a close that had no cause.
     */
    private static final long NON_READERS_LEFT_MILLIS = 10_000;
    private static final int IDLE_ATTEMPTS = 1000;
    private static final int PER_USER_CAP = 500;
    private static final int ACCOUNTS = 50;
    /** The controller's own threads (JMX, pools, backends) and the bank's: far fewer than the idle connections. */
    private static final int THREAD_BOUND = 150;

    @TempDir
    Path dir;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        for (AutoCloseable c : opened) {
            try {
                c.close();
            } catch (Exception e) {
                // the controller may have closed it first
            }
        }
        for (String db : DBS) {
            TestDatabases.dropPostgres(db);
        }
    }

    @Test
    void nonReadersABigStreamAndAThousandIdleConnectionsLeaveTheBankAlone() throws Exception {
        String[] urls = new String[DBS.length];
        List<CompletableFuture<Void>> fills = new ArrayList<>();
        for (int i = 0; i < DBS.length; i++) {
            urls[i] = TestDatabases.createPostgres(DBS[i]);
            String url = urls[i];
            fills.add(CompletableFuture.runAsync(() -> fillBig(url)));
        }
        fills.forEach(CompletableFuture::join);
        int port = Ports.free();
        int jmxPort = Ports.free();
        writeConfiguration(urls, port, jmxPort);
        String logConfig = ControllerMain.class.getResource("/" + org.phalanx.controller.LoggingSetup.CONFIGURATION).toString();
        try (ControllerProcess controller = ControllerProcess.java(ControllerMain.class.getName(), dir.resolve("controller.xml"))
                .jvmOptions("-Xmx256m", "-XX:+ExitOnOutOfMemoryError")
                .systemProperty("log4j2.configurationFile", logConfig)
                .directory(dir).output(dir.resolve("controller.out")).awaitPorts(port, jmxPort)
                .startTimeout(Duration.ofSeconds(90)).start();
             ControllerJmx jmx = ControllerJmx.connect(jmxPort, "admin", "admin", "vdb")) {
            String url = "jdbc:phalanx://127.0.0.1:" + port + "/vdb?password=secret&user=";
            try (Connection c = DriverManager.getConnection(url + "app")) {
                TransferClients.createAccounts(c, ACCOUNTS);
            }
            TransferClients bank = new TransferClients(4, ACCOUNTS, () -> DriverManager.getConnection(url + "app"));

            List<Socket> nonReaders = new ArrayList<>();
            for (int i = 0; i < NON_READERS; i++) {
                nonReaders.add(askAndNeverRead(port));
            }
            long nonReadersAsked = System.nanoTime();
            CompletableFuture<Long> stream = CompletableFuture.supplyAsync(() -> streamAll(url + "streamer"));

            int admitted = 0;
            int capped = 0;
            for (int i = 0; i < IDLE_ATTEMPTS; i++) {
                try {
                    opened.add(DriverManager.getConnection(url + "idle"));
                    admitted++;
                } catch (SQLException e) {
                    assertEquals("53300", e.getSQLState(), e.getMessage());
                    capped++;
                }
            }
            assertEquals(PER_USER_CAP, admitted, "idle connections admitted up to the per-user cap");
            assertEquals(IDLE_ATTEMPTS - PER_USER_CAP, capped);

            assertEquals(STREAM_ROWS, stream.get(5, TimeUnit.MINUTES));
            long leftAlone = (System.nanoTime() - nonReadersAsked) / 1_000_000;
            if (leftAlone < NON_READERS_LEFT_MILLIS) {
                Thread.sleep(NON_READERS_LEFT_MILLIS - leftAlone);
            }
            for (Socket s : nonReaders) {
                assertTrue(closedByController(s), "a client that read nothing was left connected; the controller's"
                        + " warnings:\n" + warnings());
            }
            // idle connections let go of their threads after 2 s, and an idle pooled thread ends after 10 s
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int threads;
            while ((threads = jmx.threadCount()) >= THREAD_BOUND && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            long heap = jmx.heapAfterGc();
            bank.assertGoesOn();
            bank.stop();
            System.out.printf("BoundedResourcesIT: %d idle connections admitted, %d refused (53300); controller"
                            + " threads %d, heap after GC %d MB; %d transfers, %d lock cycles (40001), %d errors%n", admitted,
                    capped, threads, heap >> 20, bank.done.get(), bank.conflicts.get(), bank.errors.get());
            assertEquals(0, bank.errors.get(), "the bank saw errors: " + bank.failures);
            assertTrue(bank.done.get() > 0);
            assertTrue(threads < THREAD_BOUND, "the controller holds " + threads + " threads for "
                    + PER_USER_CAP + " idle connections");
            assertTrue(controller.process().isAlive(), "the controller ran out of memory");
            String log = Files.readString(dir.resolve("controller.out"));
            assertEquals(NON_READERS, log.split("it has not read a reply", -1).length - 1, "write timeouts logged");
            assertTrue(log.split("maxConnectionsPerUser", -1).length - 1 <= 5, "refusals past the cap logged a few lines, not "
                    + (IDLE_ATTEMPTS - PER_USER_CAP));
        }
        try (Connection a = TestDatabases.connect(urls[0]); Connection b = TestDatabases.connect(urls[1])) {
            assertEquals(balances(a), balances(b), "replicas identical");
        }
    }

    private String warnings() throws IOException {
        return String.join("\n", Files.readAllLines(dir.resolve("controller.out")).stream()
                .filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).limit(30).toList());
    }

    private void writeConfiguration(String[] urls, int port, int jmxPort) throws IOException {
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users>
                    <user name="app" password="secret"/>
                    <user name="reader" password="secret"/>
                    <user name="streamer" password="secret"/>
                    <user name="idle" password="secret"/>
                  </users>
                  <backends>
                    <backend name="p1" url="%s" user="postgres" poolSize="30"/>
                    <backend name="p2" url="%s" user="postgres" poolSize="30"/>
                  </backends>
                </virtualDatabase>
                """.formatted(urls[0], urls[1]));
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d" maxConnectionsPerUser="%d" writeTimeout="3s"/>
                  <jmx address="127.0.0.1" port="%d"><admin user="admin" password="admin"/></jmx>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port, PER_USER_CAP, jmxPort));
    }

    private static void fillBig(String url) {
        try (Connection c = TestDatabases.connect(url); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE big (id INTEGER PRIMARY KEY, filler VARCHAR(40) NOT NULL)");
            s.executeUpdate("INSERT INTO big SELECT g, repeat('x', 30) FROM generate_series(1, " + STREAM_ROWS + ") g");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A raw protocol client that logs in, asks for 60 MB of rows in batches as large as it may, and
     * reads none of them. Its receive buffer is small; the first batch or so fits in the sockets'
     * buffers, and the controller, answering its next requests, is left with a reply nobody reads.
     */
    private Socket askAndNeverRead(int port) throws IOException {
        Socket s = new Socket();
        opened.add(s);
        s.setReceiveBufferSize(4096);
        s.connect(new InetSocketAddress("127.0.0.1", port));
        s.setSoTimeout(30_000);
        FrameIO.write(s.getOutputStream(), new Hello(Protocol.VERSION, "vdb", "reader", "secret", Map.of()).toMessage());
        MessageReader ok = new MessageReader(FrameIO.read(new DataInputStream(new BufferedInputStream(s.getInputStream())),
                Protocol.DEFAULT_MAX_FRAME));
        assertEquals(MessageType.HELLO_OK, ok.type());
        FrameIO.write(s.getOutputStream(), new Execute(Execute.QUERY,
                "SELECT g, repeat('x', 1000) FROM generate_series(1, 60000) g", List.of(), Execute.NO_KEYS,
                List.of(), 0, 60_000, 0, false).toMessage());
        for (int i = 0; i < 8; i++) { // the first cursor of a connection is number 1
            FrameIO.write(s.getOutputStream(), new MessageWriter(MessageType.FETCH, 16).writeInt(1).writeInt(60_000));
        }
        return s;
    }

    /** Whether the controller has closed the connection: reading what it had sent, the stream ends (or is reset). */
    private static boolean closedByController(Socket s) {
        byte[] buffer = new byte[1 << 16];
        try {
            InputStream in = s.getInputStream();
            while (in.read(buffer) >= 0) {
                // the part of the reply sent before the close
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private static long streamAll(String url) {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.setFetchSize(1000);
            long rows = 0;
            try (ResultSet rs = s.executeQuery("SELECT id, filler FROM big ORDER BY id")) {
                while (rs.next()) {
                    rows++;
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> balances(Connection c) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, balance FROM accounts ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getInt(1) + "=" + rs.getLong(2));
            }
        }
        return rows;
    }
}
