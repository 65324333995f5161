package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import org.junit.jupiter.api.Test;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.MessageType;

class ScrollableResultSetTest {

    private static Statement scrollable(Connection c) throws Exception {
        return c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
    }

    @Test
    void navigatesInEveryDirection() throws Exception {
        try (FakeServer server = new FakeServer().with(new Rowset(5));
             Connection c = DriverManager.getConnection(server.url());
             Statement st = scrollable(c);
             ResultSet rs = st.executeQuery("select")) {
            assertTrue(((Execute) server.received.get(1)).scrollable(), "the server is told to send every row");
            assertEquals(ResultSet.TYPE_SCROLL_INSENSITIVE, rs.getType());
            assertTrue(rs.isBeforeFirst());
            assertTrue(rs.last());
            assertEquals(5, rs.getRow());
            assertTrue(rs.isLast());
            assertTrue(rs.previous());
            assertEquals(4, rs.getInt(1));
            assertTrue(rs.first());
            assertTrue(rs.isFirst());
            assertFalse(rs.previous());
            assertTrue(rs.isBeforeFirst());
            assertTrue(rs.absolute(3));
            assertEquals("row 3", rs.getString(2));
            assertTrue(rs.absolute(-1));
            assertEquals(5, rs.getInt(1));
            assertTrue(rs.absolute(-5));
            assertEquals(1, rs.getInt(1));
            assertFalse(rs.absolute(-6));
            assertTrue(rs.isBeforeFirst());
            assertFalse(rs.absolute(9));
            assertTrue(rs.isAfterLast());
            assertTrue(rs.relative(-2));
            assertEquals(4, rs.getInt(1));
            assertTrue(rs.relative(1));
            assertEquals(5, rs.getInt(1));
            assertFalse(rs.relative(1));
            assertTrue(rs.isAfterLast());
            rs.beforeFirst();
            assertTrue(rs.next());
            assertEquals(1, rs.getRow());
            rs.afterLast();
            assertTrue(rs.previous());
            assertEquals(5, rs.getRow());
            assertEquals(0, server.count(MessageType.FETCH));
        }
    }

    @Test
    void readsTheRestIfTheServerSentOnlyABatch() throws Exception {
        try (FakeServer server = new FakeServer().with(new Rowset(25, false));
             Connection c = DriverManager.getConnection(server.url());
             Statement st = scrollable(c)) {
            st.setFetchSize(10);
            ResultSet rs = st.executeQuery("select");
            assertTrue(rs.last());
            assertEquals(25, rs.getRow());
            assertEquals(2, server.count(MessageType.FETCH));
            assertEquals(0, server.lastSession.openCursors());
        }
    }
}
