package org.phalanx.controller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.jmx.ControllerMXBean;
import org.phalanx.controller.jmx.ObjectNames;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;

/** The controller MBean in-process: loading and unloading virtual databases, shutdown modes, the configuration shown. */
class ControllerManagementTest {
    @TempDir
    Path dir;
    private Controller controller;
    private ControllerMXBean mbean;

    private void writeVdb(String file, String name) throws Exception {
        Files.writeString(dir.resolve(file), """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="%s">
                  <users><user name="app" password="pw"/></users>
                  <backends><backend name="%s1" url="jdbc:sqlite:%s1.db" password="backend-secret"/></backends>
                </virtualDatabase>
                """.formatted(name, name, name));
    }

    @BeforeEach
    void start() throws Exception {
        writeVdb("first.xml", "first");
        writeVdb("second.xml", "second");
        Files.writeString(dir.resolve("controller.xml"), """
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="0"/>
                  <virtualDatabase file="first.xml"/>
                </controller>
                """);
        controller = Controller.fromConfig(dir.resolve("controller.xml"));
        controller.start();
        mbean = JMX.newMXBeanProxy(controller.mbeanServer(), ObjectNames.controller(), ControllerMXBean.class);
    }

    @AfterEach
    void stop() {
        controller.stop();
    }

    private Connection login(String vdb) throws SQLException {
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + controller.port() + "/" + vdb
                + "?user=app&password=pw");
    }

    @Test
    void loadsAVirtualDatabaseWhileServingAndRefusesItTwice() throws Exception {
        assertEquals("second", mbean.loadVirtualDatabase("second.xml"));
        assertArrayEquals(new String[]{"first", "second"}, mbean.getVirtualDatabases());
        assertTrue(controller.mbeanServer().isRegistered(ObjectNames.backend("second", "second1")));
        try (Connection c = login("second")) {
            assertTrue(c.isValid(5));
        }
        SQLException twice = assertThrows(SQLException.class, () -> mbean.loadVirtualDatabase("second.xml"));
        assertEquals("42710", twice.getSQLState());
        SQLException missing = assertThrows(SQLException.class, () -> mbean.loadVirtualDatabase("nosuch.xml"));
        assertEquals("22023", missing.getSQLState());
    }

    @Test
    void unloadForceRemovesItsMBeansAndRefusesNewLogins() throws Exception {
        mbean.unloadVirtualDatabase("first", "force");
        assertEquals(0, mbean.getVirtualDatabases().length);
        assertFalse(controller.mbeanServer().isRegistered(ObjectNames.virtualDatabase("first")));
        assertFalse(controller.mbeanServer().isRegistered(ObjectNames.backend("first", "first1")));
        assertThrows(SQLException.class, () -> login("first"));
        assertThrows(IllegalArgumentException.class, () -> mbean.unloadVirtualDatabase("second", "soon"));
    }

    @Test
    void unloadWaitWaitsForTheLastClientToLeave() throws Exception {
        VirtualDatabaseMXBean vdb = JMX.newMXBeanProxy(controller.mbeanServer(), ObjectNames.virtualDatabase("first"),
                VirtualDatabaseMXBean.class);
        Connection client = login("first");
        assertEquals(1, vdb.getOpenSessions());
        CompletableFuture<Void> unload = CompletableFuture.runAsync(() -> {
            try {
                mbean.unloadVirtualDatabase("first", "wait");
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
        awaitRefusedLogin("first"); // new logins are refused once the unload has begun
        assertFalse(unload.isDone(), "a client is still connected");
        client.close();
        unload.get(1, TimeUnit.MINUTES);
        assertEquals(0, mbean.getVirtualDatabases().length);
    }

    private void awaitRefusedLogin(String vdb) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            try (Connection c = login(vdb)) {
                Thread.sleep(10);
            } catch (SQLException refused) {
                return;
            }
        }
        throw new AssertionError("logins to " + vdb + " are still accepted");
    }

    @Test
    void shutdownStopsTheControllerInTheBackground() throws Exception {
        mbean.shutdown("safe");
        controller.stopped().get(1, TimeUnit.MINUTES);
        assertThrows(SQLException.class, () -> login("first"));
        assertThrows(IllegalArgumentException.class, () -> ShutdownMode.parse("later"));
    }

    @Test
    void jmxWithoutAnAdminOpensNoPortButTheMBeansExist() throws Exception {
        Files.writeString(dir.resolve("nojmx.xml"), """
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="0"/>
                  <jmx port="0"/>
                  <virtualDatabase file="second.xml"/>
                </controller>
                """);
        Controller other = Controller.fromConfig(dir.resolve("nojmx.xml"));
        try {
            other.start();
            assertEquals(-1, other.jmxPort());
            assertTrue(other.mbeanServer().isRegistered(ObjectNames.virtualDatabase("second")));
        } finally {
            other.stop();
        }
        assertTrue(controller.jmxPort() == -1, "no <jmx> at all: no port either");
    }

    @Test
    void configurationIsShownWithoutPasswords() throws Exception {
        assertTrue(mbean.getConfiguration().contains("<virtualDatabase file=\"first.xml\"/>"));
        String vdb = mbean.virtualDatabaseConfiguration("first");
        assertTrue(vdb.contains("password=\"***\""), vdb);
        assertFalse(vdb.contains("backend-secret"), vdb);
        assertFalse(vdb.contains("\"pw\""), vdb);
    }
}
