package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * A controller process managed over JMX by a plain {@link JMXConnector} client: only JDK
 * classes, object names and attribute names, as jconsole or any JMX tool would.
 */
class JmxManagementIT {
    private static final String VDB = "org.phalanx:type=VirtualDatabase,name=mydb";

    @TempDir
    static Path dir;
    private static ControllerProcess controller;
    private static int clientPort;
    private static int jmxPort;

    @BeforeAll
    static void startController() throws Exception {
        clientPort = Ports.free();
        jmxPort = Ports.free();
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <jmx address="127.0.0.1" port="%d">
                    <admin user="admin" password="s3cret"/>
                  </jmx>
                  <virtualDatabase file="mydb.xml"/>
                </controller>
                """.formatted(clientPort, jmxPort));
        Files.writeString(dir.resolve("mydb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="mydb">
                  <users><user name="app" password="pw"/></users>
                  <backends>
                    <backend name="b1" url="jdbc:sqlite:b1.db"/>
                    <backend name="b2" url="jdbc:sqlite:b2.db" maxPending="3"/>
                  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="all"/>
                  <recoveryLog dir="log" dumpDir="dumps"/>
                  <cache/>
                </virtualDatabase>
                """);
        controller = ControllerProcess.launch(dir.resolve("controller.xml"), dir.resolve("controller.out"),
                clientPort, jmxPort);
    }

    @AfterAll
    static void stopController() throws IOException {
        if (controller != null) {
            controller.close();
        }
    }

    private static JMXServiceURL url() throws IOException {
        return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi");
    }

    private static JMXConnector connect(String user, String password) throws IOException {
        Map<String, Object> env = new HashMap<>();
        if (user != null) {
            env.put(JMXConnector.CREDENTIALS, new String[]{user, password});
        }
        return JMXConnectorFactory.connect(url(), env);
    }

    private static Connection client() throws Exception {
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + clientPort + "/mydb?user=app&password=pw");
    }

    @Test
    void readsStatesAndStatisticsDisablesEnablesByReplayAndNotifies() throws Exception {
        try (JMXConnector jmx = connect("admin", "s3cret")) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            ObjectName vdb = new ObjectName(VDB);
            ObjectName b2 = new ObjectName("org.phalanx:type=Backend,vdb=mydb,name=b2");
            assertEquals(Map.of("b1", "ENABLED", "b2", "ENABLED"), states(server, vdb));

            BlockingQueue<Notification> events = new LinkedBlockingQueue<>();
            NotificationListener listener = (n, handback) -> events.add(n);
            server.addNotificationListener(vdb, listener, null, null);

            long writesBefore = (Long) server.getAttribute(vdb, "Writes");
            try (Connection c = client(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
                insert(c, 0, 10);
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t WHERE id >= 0")) {
                    rs.next();
                }
            }
            assertEquals(writesBefore + 11, (Long) server.getAttribute(vdb, "Writes"));
            assertTrue((Long) server.getAttribute(vdb, "Reads") >= 1);
            long b2Writes = (Long) server.getAttribute(b2, "Writes");
            assertTrue(b2Writes >= 11, "b2 applied every write: " + b2Writes);
            assertTrue((Long) server.getAttribute(b2, "TotalTimeMicros") > 0);
            TabularData answers = (TabularData) server.getAttribute(vdb, "AnswerTimeMicros");
            double answered = (Double) answers.get(new Object[] {"count"}).get("value");
            assertTrue(answered >= 12, "every request's answer time is recorded: " + answered);
            assertTrue((Double) answers.get(new Object[] {"p50"}).get("value") > 0);

            server.invoke(vdb, "disableBackend", new Object[]{"b2"}, new String[]{String.class.getName()});
            CompositeData disabled = next(events, "phalanx.backend.state");
            assertEquals("b2", disabled.get("backend"));
            assertEquals("ENABLED", disabled.get("from"));
            assertEquals("DISABLED", disabled.get("to"));
            assertEquals(false, disabled.get("failure"));
            CompositeData finished = next(events, "phalanx.operation.finished");
            assertEquals("disable backend b2", finished.get("operation"));
            assertEquals(true, finished.get("succeeded"));
            assertEquals("DISABLED", server.getAttribute(b2, "State"));
            assertTrue((Long) server.getAttribute(b2, "Checkpoint") > 0, "a disabled backend keeps its checkpoint");

            try (Connection c = client()) {
                insert(c, 10, 50); // b2 misses these
            }
            assertEquals(Map.of("b1", "ENABLED", "b2", "DISABLED"), states(server, vdb));

            server.invoke(vdb, "enableBackend", new Object[]{"b2"}, new String[]{String.class.getName()});
            CompositeData replaying = next(events, "phalanx.backend.state");
            assertEquals("REPLAYING", replaying.get("to"));
            CompositeData enabled = next(events, "phalanx.backend.state");
            assertEquals("REPLAYING", enabled.get("from"));
            assertEquals("ENABLED", enabled.get("to"));
            assertEquals("enable backend b2", next(events, "phalanx.operation.finished").get("operation"));
            assertEquals(Map.of("b1", "ENABLED", "b2", "ENABLED"), states(server, vdb));
            assertEquals(rows("b1"), rows("b2"), "the replay brought b2 up to date");
            assertEquals(50, rows("b2"));

            CompositeData[] top = (CompositeData[]) server.invoke(vdb, "topStatements", new Object[]{5},
                    new String[]{int.class.getName()});
            CompositeData insert = java.util.Arrays.stream(top)
                    .filter(t -> t.get("template").equals("INSERT INTO t VALUES (?, ?)")).findFirst().orElseThrow();
            assertEquals(50L, insert.get("count"));
            assertEquals(0L, insert.get("errors"));

            ObjectName log = new ObjectName("org.phalanx:type=RecoveryLog,vdb=mydb");
            assertTrue((Long) server.getAttribute(log, "Size") >= 51, "the log holds every write");
            ObjectName cache = new ObjectName("org.phalanx:type=Cache,vdb=mydb");
            assertNotNull(server.getAttribute(cache, "Hits"));
            ObjectName scheduler = new ObjectName("org.phalanx:type=Scheduler,vdb=mydb");
            assertEquals("RAIDB_1", server.getAttribute(scheduler, "Replication"));
            assertEquals(0, server.getAttribute(scheduler, "ReadsWaitingForRoom"));
            assertEquals(0, server.getAttribute(scheduler, "SchemaChangesSettling"));
            assertEquals(3, server.getAttribute(new ObjectName("org.phalanx:type=Backend,vdb=mydb,name=b2"), "MaxPending"));
            assertEquals(0, server.getAttribute(new ObjectName("org.phalanx:type=Backend,vdb=mydb,name=b1"), "MaxPending"));

            server.removeNotificationListener(vdb, listener);
        }
    }

    @Test
    void backupReportsProgressAndItsEnd() throws Exception {
        try (JMXConnector jmx = connect("admin", "s3cret"); Connection c = client(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE IF NOT EXISTS big (id INTEGER PRIMARY KEY, v TEXT)");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO big VALUES (?, ?)")) {
                for (int i = 0; i < 3000; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "row " + i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            ObjectName vdb = new ObjectName(VDB);
            BlockingQueue<Notification> events = new LinkedBlockingQueue<>();
            server.addNotificationListener(vdb, (n, h) -> events.add(n), null, null);
            CompositeData dump = (CompositeData) server.invoke(vdb, "backup", new Object[]{"b1", "jmx-dump", ""},
                    new String[]{String.class.getName(), String.class.getName(), String.class.getName()});
            assertTrue((Long) dump.get("rows") >= 3000);
            CompositeData progress = next(events, "phalanx.operation.progress");
            assertEquals("backup b1 to jmx-dump", progress.get("operation"));
            CompositeData finished = next(events, "phalanx.operation.finished");
            assertEquals(true, finished.get("succeeded"));
            CompositeData[] dumps = (CompositeData[]) server.invoke(vdb, "listDumps", null, null);
            assertTrue(java.util.Arrays.stream(dumps).anyMatch(d -> d.get("name").equals("jmx-dump")));
        }
    }

    @Test
    void unauthenticatedAndWrongPasswordAccessIsRefused() throws Exception {
        SecurityException none = assertThrows(SecurityException.class, () -> connect(null, null));
        assertTrue(none.getMessage().contains("invalid credentials"), none.getMessage());
        assertThrows(SecurityException.class, () -> connect("admin", "wrong"));
        assertThrows(SecurityException.class, () -> connect("nobody", "s3cret"));
        try (JMXConnector ok = connect("admin", "s3cret")) {
            assertNotNull(ok.getMBeanServerConnection().getAttribute(new ObjectName("org.phalanx:type=Controller"),
                    "Version"));
        }
        assertTrue(controller.output().contains("JMX connection refused for user admin: wrong user or password"));
    }

    @Test
    void aFailedOperationIsAClearErrorAndANotification() throws Exception {
        try (JMXConnector jmx = connect("admin", "s3cret")) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            ObjectName vdb = new ObjectName(VDB);
            BlockingQueue<Notification> events = new LinkedBlockingQueue<>();
            server.addNotificationListener(vdb, (n, h) -> events.add(n), null, null);
            Exception e = assertThrows(Exception.class, () -> server.invoke(vdb, "restore",
                    new Object[]{"b1", "no-such-dump", false},
                    new String[]{String.class.getName(), String.class.getName(), boolean.class.getName()}));
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            assertTrue(cause.getMessage().contains("disable it first") || cause.getMessage().contains("no dump"),
                    cause.getMessage());
            assertEquals(false, next(events, "phalanx.operation.finished").get("succeeded"));
        }
    }

    private static void insert(Connection c, int from, int to) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
            for (int i = from; i < to; i++) {
                ps.setInt(1, i);
                ps.setString(2, "v" + i);
                ps.executeUpdate();
            }
        }
    }

    private static long rows(String backend) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(backend + ".db"));
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Map<String, String> states(MBeanServerConnection server, ObjectName vdb) throws Exception {
        TabularData table = (TabularData) server.getAttribute(vdb, "BackendStates");
        Map<String, String> states = new HashMap<>();
        for (Object row : table.values()) {
            CompositeData r = (CompositeData) row;
            states.put((String) r.get("key"), (String) r.get("value"));
        }
        return states;
    }

    /** The next notification of that type (others are skipped); fails if none comes within a minute. */
    private static CompositeData next(BlockingQueue<Notification> events, String type) throws InterruptedException {
        while (true) {
            Notification n = events.poll(1, TimeUnit.MINUTES);
            assertNotNull(n, "no " + type + " notification");
            if (n.getType().equals(type)) {
                return (CompositeData) n.getUserData();
            }
        }
    }
}
