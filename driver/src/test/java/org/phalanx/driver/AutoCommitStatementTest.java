package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.HelloOk;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.Protocol;

/**
 * MariaDB's {@code SET autocommit = 0 | 1} is the connection's setAutoCommit on a MariaDB virtual
 * database (getAutoCommit tells, the controller is told as by the JDBC call); on another engine it is
 * a statement like any other.
 */
class AutoCommitStatementTest {
    private static FakeServer.Behaviour product(String name) {
        return new FakeServer.Behaviour() {
            @Override
            MessageWriter hello(Hello h) {
                return new HelloOk(Protocol.VERSION, name, "1", 1, Connection.TRANSACTION_REPEATABLE_READ).toMessage();
            }
        };
    }

    @Test
    void recognisesTheForms() {
        assertEquals(false, AutoCommitStatement.valueSet("SET autocommit=0"));
        assertEquals(true, AutoCommitStatement.valueSet("set @@session.autocommit = ON;"));
        assertEquals(false, AutoCommitStatement.valueSet(" SET SESSION autocommit = 'OFF'"));
        assertNull(AutoCommitStatement.valueSet("SET autocommit=0, sql_mode=''"));
        assertNull(AutoCommitStatement.valueSet("SELECT 1"));
    }

    @Test
    void onMariaDbItIsTheConnectionsAutoCommit() throws Exception {
        try (FakeServer server = new FakeServer().with(product("MariaDB"));
             Connection c = DriverManager.getConnection(server.url()); Statement s = c.createStatement()) {
            assertFalse(s.execute("SET autocommit = 0"));
            assertEquals(0, s.getUpdateCount());
            assertFalse(c.getAutoCommit());
            assertEquals(1, server.count(MessageType.SET_AUTO_COMMIT));
            s.executeUpdate("SET @@autocommit = 1");
            assertTrue(c.getAutoCommit());
            assertEquals(2, server.count(MessageType.SET_AUTO_COMMIT));
            assertEquals(0, server.count(MessageType.EXECUTE), "nothing sent as a statement");
        }
    }

    @Test
    void elsewhereItIsAStatement() throws Exception {
        try (FakeServer server = new FakeServer().with(product("PostgreSQL"));
             Connection c = DriverManager.getConnection(server.url()); Statement s = c.createStatement()) {
            assertThrows(SQLException.class, () -> s.execute("SET autocommit = 0")); // the fake answers no statement
            assertTrue(c.getAutoCommit());
            assertEquals(1, server.count(MessageType.EXECUTE));
        }
    }
}
