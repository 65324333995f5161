package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.UpdateCount;

/**
 * readOnlyRouting=followers: what a read-write connection declares read-only runs on a read-only
 * session of its own on another member, which is told the connection's settings when switched to.
 */
class FollowerSessionTest {
    private FakeServer primary;
    private FakeServer follower;

    /** Counts every statement as one row changed; a member that is a follower serves read-only sessions only. */
    private static final class Member extends FakeServer.Behaviour {
        private final boolean followerOnly;

        Member(boolean followerOnly) {
            this.followerOnly = followerOnly;
        }

        @Override
        MessageWriter hello(Hello h) {
            if (followerOnly && !"true".equals(h.properties().get("readOnly"))) {
                return new ErrorReply("08004", 0, "a follower serves read-only sessions only").toMessage();
            }
            return super.hello(h);
        }

        @Override
        MessageWriter execute(Execute e, FakeServer.Session s) {
            return new UpdateCount(1, null).toMessage();
        }
    }

    @BeforeEach
    void start() throws Exception {
        primary = new FakeServer().with(new Member(false));
        follower = new FakeServer().with(new Member(true));
    }

    @AfterEach
    void stop() throws Exception {
        primary.close();
        follower.close();
    }

    private String url(String options) {
        return "jdbc:phalanx://127.0.0.1:" + primary.port() + ",127.0.0.1:" + follower.port()
                + "/vdb?user=alice&password=secret&" + options;
    }

    private static List<String> statements(FakeServer server) {
        return server.received.stream().filter(Execute.class::isInstance).map(r -> ((Execute) r).sql()).toList();
    }

    @Test
    void readOnlyWorkRunsOnAFollowerToldTheConnectionsSettings() throws Exception {
        try (Connection c = DriverManager.getConnection(url("readOnlyRouting=followers"))) {
            Statement s = c.createStatement();
            s.executeUpdate("SET search_path TO app");
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            c.setAutoCommit(false);
            s.executeUpdate("UPDATE t SET v = 1");
            c.commit();

            c.setReadOnly(true);
            assertTrue(c.isReadOnly());
            s.executeUpdate("SELECT 'read'");
            c.commit();
            assertEquals(List.of("SET search_path TO app", "SELECT 'read'"), statements(follower),
                    "the follower ran the session's command, then the read");
            Hello hello = (Hello) follower.received.get(0);
            assertEquals("true", hello.properties().get("readOnly"));
            assertEquals("current", hello.properties().get("followerReads"), "as current as the primary by default");
            assertTrue(follower.received.contains(Connection.TRANSACTION_SERIALIZABLE), "told the isolation");
            assertEquals(1, follower.count(MessageType.SET_AUTO_COMMIT), "told auto-commit is off");
            assertEquals(0, primary.count(MessageType.SET_READ_ONLY), "the primary's session stays read-write");

            s.executeUpdate("SELECT 'in a transaction'");
            SQLException inTransaction = assertThrows(SQLException.class, () -> c.setReadOnly(false));
            assertEquals("25001", inTransaction.getSQLState());
            c.rollback();

            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            c.setAutoCommit(true);
            c.setReadOnly(false);
            assertFalse(c.isReadOnly());
            s.executeUpdate("UPDATE t SET v = 2");
            assertEquals("UPDATE t SET v = 2", statements(primary).get(statements(primary).size() - 1));
            assertTrue(primary.received.contains(Connection.TRANSACTION_READ_COMMITTED),
                    "the primary was told what changed on the follower");
            assertEquals(2, primary.count(MessageType.SET_AUTO_COMMIT), "auto-commit off, then on again");

            c.setReadOnly(true);
            s.executeUpdate("SELECT 'again'");
            assertEquals(1, follower.count(MessageType.HELLO), "one follower session, kept");
        }
        assertEquals(1, follower.count(MessageType.CLOSE), "closed with the connection");
    }

    @Test
    void aSessionWithTemporaryTablesStaysOnThePrimary() throws Exception {
        try (Connection c = DriverManager.getConnection(url("readOnlyRouting=followers"))) {
            c.createStatement().executeUpdate("CREATE TEMPORARY TABLE scratch (id INTEGER)");
            c.setReadOnly(true);
            c.createStatement().executeUpdate("SELECT * FROM scratch");
            assertEquals(1, primary.count(MessageType.SET_READ_ONLY));
            assertEquals(0, follower.count(MessageType.HELLO));
        }
    }

    @Test
    void withoutTheOptionReadOnlyStaysOnTheConnectionsSession() throws Exception {
        try (Connection c = DriverManager.getConnection(url("failover=true"))) {
            c.setReadOnly(true);
            c.createStatement().executeUpdate("SELECT 1");
            assertEquals(1, primary.count(MessageType.SET_READ_ONLY));
            assertEquals(0, follower.count(MessageType.HELLO));
        }
        SQLException bad = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(url("readOnlyRouting=nearest")));
        assertEquals("08001", bad.getSQLState());
    }
}
