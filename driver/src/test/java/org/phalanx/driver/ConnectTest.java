package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.util.Arrays;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.MessageType;

class ConnectTest {

    /** A port on loopback where nothing listens (connection refused). */
    private static int deadPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void driverIsFoundThroughTheServiceLoaderAndHandsOtherUrlsOn() throws Exception {
        java.sql.Driver d = DriverManager.getDriver("jdbc:phalanx://h/vdb");
        assertInstanceOf(Driver.class, d);
        assertNull(d.connect("jdbc:postgresql://h/db", new Properties()));
        assertFalse(d.jdbcCompliant());
        SQLException e = assertThrows(SQLException.class, () -> d.connect("jdbc:phalanx://h", new Properties()));
        assertTrue(e.getMessage().contains("malformed Phalanx URL"), e.getMessage());
    }

    @Test
    void helloCarriesCredentialsAndPropertiesAndMetadataReportsTheProduct() throws Exception {
        try (FakeServer server = new FakeServer()) {
            Properties info = new Properties();
            info.setProperty("applicationName", "billing");
            try (Connection c = DriverManager.getConnection(server.url(), info)) {
                Hello h = (Hello) server.received.get(0);
                assertEquals("vdb", h.vdb());
                assertEquals("alice", h.user());
                assertEquals("secret", h.password());
                assertEquals("billing", h.properties().get("applicationName"));
                assertFalse(h.properties().containsKey("password"));

                DatabaseMetaData md = c.getMetaData();
                assertEquals("FakeDB", md.getDatabaseProductName());
                assertEquals("3.14.15", md.getDatabaseProductVersion());
                assertEquals(3, md.getDatabaseMajorVersion());
                assertEquals(14, md.getDatabaseMinorVersion());
                assertEquals("alice", md.getUserName());
                assertEquals(server.url(), md.getURL());
                assertEquals(42, c.unwrap(PhalanxConnection.class).getSessionId());
            }
            assertEquals(1, server.count(MessageType.CLOSE), "close sends CLOSE");
        }
    }

    @Test
    void failsOverToTheNextHostWhenTheFirstRefuses() throws Exception {
        try (FakeServer server = new FakeServer()) {
            String url = "jdbc:phalanx://127.0.0.1:" + deadPort() + ",127.0.0.1:" + server.port()
                    + "/vdb?user=alice&password=secret";
            try (Connection c = DriverManager.getConnection(url)) {
                assertTrue(c.isValid(2));
                assertEquals(1, server.count(MessageType.HELLO));
            }
        }
    }

    @Test
    void failsOverPastAHostThatAcceptsButNeverAnswers() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
             FakeServer server = new FakeServer()) {
            String url = "jdbc:phalanx://127.0.0.1:" + silent.getLocalPort() + ",127.0.0.1:" + server.port()
                    + "/vdb?user=alice&password=secret&connectTimeout=300";
            try (Connection c = DriverManager.getConnection(url)) {
                assertFalse(c.isClosed());
            }
        }
    }

    @Test
    void noReachableHostIs08001NamingEveryHost() throws Exception {
        int p1 = deadPort();
        int p2 = deadPort();
        String url = "jdbc:phalanx://127.0.0.1:" + p1 + ",127.0.0.1:" + p2 + "/vdb";
        SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url));
        assertEquals("08001", e.getSQLState());
        assertTrue(e.getMessage().contains("127.0.0.1:" + p1) && e.getMessage().contains("127.0.0.1:" + p2),
                e.getMessage());
    }

    @Test
    void badCredentialsAre28000AndNotRetriedElsewhere() throws Exception {
        try (FakeServer first = new FakeServer(); FakeServer second = new FakeServer()) {
            String url = "jdbc:phalanx://127.0.0.1:" + first.port() + ",127.0.0.1:" + second.port()
                    + "/vdb?user=alice&password=bad";
            SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url));
            assertInstanceOf(SQLInvalidAuthorizationSpecException.class, e);
            assertEquals("28000", e.getSQLState());
            assertEquals(1045, e.getErrorCode());
            assertTrue(e.getMessage().contains("access denied"));
            assertEquals(0, second.count(MessageType.HELLO));
        }
    }

    @Test
    void unknownVirtualDatabaseIs08004() throws Exception {
        try (FakeServer server = new FakeServer()) {
            SQLException e = assertThrows(SQLException.class,
                    () -> DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + server.port() + "/nope"));
            assertEquals("08004", e.getSQLState());
        }
    }

    @Test
    void dataSourceBuildsTheUrlFromBeanProperties() throws Exception {
        try (FakeServer server = new FakeServer()) {
            PhalanxDataSource ds = new PhalanxDataSource();
            ds.setServerName("127.0.0.1");
            ds.setPortNumber(server.port());
            ds.setDatabaseName("vdb");
            ds.setUser("alice");
            ds.setPassword("secret");
            assertEquals("jdbc:phalanx://127.0.0.1:" + server.port() + "/vdb", ds.getUrl());
            try (Connection c = ds.getConnection()) {
                assertTrue(c.isValid(1));
            }
            assertThrows(SQLInvalidAuthorizationSpecException.class, () -> ds.getConnection("alice", "bad"));
            ds.setUrl("jdbc:phalanx://127.0.0.1:" + server.port() + "/vdb");
            try (Connection c = ds.getConnection("bob", "pw")) {
                assertEquals("bob", ((Hello) server.received.get(server.received.size() - 1)).user());
            }
        }
    }

    @Test
    void propertyInfoListsTheDriverSettings() throws Exception {
        DriverPropertyInfo[] info = new Driver().getPropertyInfo("jdbc:phalanx://h/vdb?user=u&fetchSize=10", null);
        assertEquals("[user, password, connectTimeout, socketTimeout, fetchSize]",
                Arrays.toString(Arrays.stream(info).map(p -> p.name).toArray()));
        assertEquals("u", info[0].value);
        assertEquals("10", info[4].value);
    }
}
