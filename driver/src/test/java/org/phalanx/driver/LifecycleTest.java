package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.phalanx.protocol.MessageType;

/** Transactions, closing, broken connections and refused features. */
class LifecycleTest {
    private FakeServer server;
    private Connection connection;

    @BeforeEach
    void start() throws Exception {
        server = new FakeServer().with(new Rowset(50));
        connection = DriverManager.getConnection(server.url());
    }

    @AfterEach
    void stop() throws Exception {
        connection.close();
        server.close();
    }

    private static void assertState(String state, Executable call) {
        SQLException e = assertThrows(SQLException.class, call);
        assertEquals(state, e.getSQLState(), e.getMessage());
    }

    @Test
    void transactionsAreDemarcatedOnTheServer() throws Exception {
        assertTrue(connection.getAutoCommit());
        assertState("25000", connection::commit);
        assertState("25000", connection::rollback);

        connection.setAutoCommit(false);
        connection.setAutoCommit(false);
        assertEquals(1, server.count(MessageType.SET_AUTO_COMMIT), "only changes are sent");
        connection.commit();
        connection.rollback();
        assertEquals(1, server.count(MessageType.COMMIT));
        assertEquals(1, server.count(MessageType.ROLLBACK));

        connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        assertEquals(Connection.TRANSACTION_SERIALIZABLE, connection.getTransactionIsolation());
        assertTrue(server.received.contains(Connection.TRANSACTION_SERIALIZABLE));
        assertThrows(SQLException.class, () -> connection.setTransactionIsolation(Connection.TRANSACTION_NONE));

        connection.setReadOnly(true);
        assertTrue(connection.isReadOnly());
        assertEquals(1, server.count(MessageType.SET_READ_ONLY));
        assertTrue(connection.getMetaData().isReadOnly());
    }

    @Test
    void closingTheConnectionClosesEverythingAndIsIdempotent() throws Exception {
        Statement st = connection.createStatement();
        st.setFetchSize(10);
        ResultSet rs = st.executeQuery("select");
        rs.next();
        PreparedStatement ps = connection.prepareStatement("select ?");
        connection.close();
        connection.close();
        assertEquals(1, server.count(MessageType.CLOSE));
        assertEquals(0, server.count(MessageType.CLOSE_CURSOR), "CLOSE frees the cursors on the server");
        assertTrue(connection.isClosed());
        assertTrue(st.isClosed());
        assertTrue(ps.isClosed());
        assertTrue(rs.isClosed());
        assertFalse(connection.isValid(1));

        for (Executable call : List.<Executable>of(connection::createStatement, () -> connection.prepareStatement("x"),
                connection::commit, () -> connection.setAutoCommit(false), connection::getMetaData,
                connection::getWarnings, () -> connection.nativeSQL("x"), connection::getTransactionIsolation)) {
            assertState("08003", call);
        }
        assertState("HY010", () -> st.executeQuery("select"));
        assertState("HY010", () -> ps.setInt(1, 1));
        assertState("HY010", rs::next);
        assertState("HY010", () -> rs.getString(1));
        st.close();
        rs.close();
    }

    @Test
    void closedStatementsAndResultSetsRefuseWork() throws Exception {
        Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("select");
        rs.close();
        assertState("HY010", rs::next);
        assertState("HY010", rs::getMetaData);
        assertTrue(rs.isClosed());
        st.close();
        st.close();
        assertState("HY010", () -> st.executeUpdate("x"));
        assertState("HY010", st::getResultSet);
        assertState("HY010", () -> st.setFetchSize(1));
        assertFalse(connection.isClosed(), "closing a statement leaves the connection open");
    }

    @Test
    void aDroppedConnectionIs08006AndCloseStillSucceeds() throws Exception {
        assertTrue(connection.isValid(1));
        server.dropConnections();
        Statement st = connection.createStatement();
        assertState("08006", () -> st.executeQuery("select"));
        assertState("08006", () -> st.executeQuery("select"));
        assertFalse(connection.isValid(1));
        connection.close();
        assertTrue(connection.isClosed());
    }

    @Test
    void unsupportedFeaturesSaySo() throws Exception {
        List<Executable> refused = List.of(
                () -> connection.prepareCall("{call p()}"),
                () -> connection.createStatement(ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_READ_ONLY),
                () -> connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE),
                () -> connection.setHoldability(ResultSet.HOLD_CURSORS_OVER_COMMIT),
                () -> connection.prepareStatement("x", new int[] {1}),
                () -> connection.createArrayOf("int", new Object[0]),
                connection::createSQLXML,
                () -> connection.createStatement().cancel());
        for (Executable call : refused) {
            assertThrows(SQLFeatureNotSupportedException.class, call);
        }
        try (ResultSet rs = connection.createStatement().executeQuery("select")) {
            rs.next();
            assertEquals(ResultSet.CONCUR_READ_ONLY, rs.getConcurrency());
            assertThrows(SQLFeatureNotSupportedException.class, () -> rs.updateInt(1, 5));
            assertThrows(SQLFeatureNotSupportedException.class, rs::insertRow);
            assertThrows(java.sql.SQLDataException.class, () -> rs.getArray(1), "not an array column");
        }
    }

    @Test
    void localConnectionStateAndWrappers() throws Exception {
        connection.setClientInfo("ApplicationName", "billing");
        assertEquals("billing", connection.getClientInfo("ApplicationName"));
        assertEquals("billing", connection.getClientInfo().getProperty("ApplicationName"));
        connection.setCatalog("ignored");
        assertEquals("vdb", connection.getCatalog(), "the virtual database is the catalog");
        assertEquals("select 1", connection.nativeSQL("select 1"));
        connection.setNetworkTimeout(Runnable::run, 5000);
        assertEquals(5000, connection.getNetworkTimeout());
        assertTrue(connection.isWrapperFor(PhalanxConnection.class));
        assertEquals(connection, connection.unwrap(Connection.class));
        assertThrows(SQLException.class, () -> connection.unwrap(String.class));
        assertEquals(ResultSet.CLOSE_CURSORS_AT_COMMIT, connection.getHoldability());
    }
}
