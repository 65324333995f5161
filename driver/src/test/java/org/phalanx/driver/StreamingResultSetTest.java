package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;

/** Forward-only results stream one batch at a time from the server cursor. */
class StreamingResultSetTest {

    @Test
    void aHundredThousandRowsStreamInBatchesOfTheFetchSize() throws Exception {
        try (FakeServer server = new FakeServer().with(new Rowset(100_000));
             Connection c = DriverManager.getConnection(server.url());
             Statement st = c.createStatement()) {
            st.setFetchSize(100);
            PhalanxResultSet rs = (PhalanxResultSet) st.executeQuery("select id, name from big");
            StreamingRows rows = rs.streamingRows();
            int count = 0;
            int mostBuffered = 0;
            while (rs.next()) {
                count++;
                assertEquals(count, rs.getInt(1));
                mostBuffered = Math.max(mostBuffered, rows.bufferedRows());
            }
            assertEquals(100_000, count);
            assertEquals(999, rows.fetchCount(), "the first batch came with the reply, 999 more were fetched");
            assertEquals(999, server.count(MessageType.FETCH));
            assertTrue(server.fetchSizes.stream().allMatch(n -> n == 100), "every FETCH asks for the fetch size");
            assertEquals(100, rows.largestBatch(), "never more than one batch held");
            assertTrue(mostBuffered < 100);
            assertTrue(rs.isAfterLast());
            rs.close();
            assertEquals(0, server.count(MessageType.CLOSE_CURSOR), "the server freed the cursor with the last batch");
            assertEquals(0, server.lastSession.openCursors());
        }
    }

    @Test
    void closingEarlyFreesTheServerCursorOnce() throws Exception {
        try (FakeServer server = new FakeServer().with(new Rowset(1000));
             Connection c = DriverManager.getConnection(server.url());
             Statement st = c.createStatement()) {
            st.setFetchSize(100);
            ResultSet rs = st.executeQuery("select");
            for (int i = 0; i < 250; i++) {
                assertTrue(rs.next());
            }
            rs.close();
            rs.close();
            assertEquals(1, server.count(MessageType.CLOSE_CURSOR));
            assertEquals(0, server.lastSession.openCursors());
            assertTrue(rs.isClosed());
        }
    }

    @Test
    void closingTheStatementClosesItsOpenResult() throws Exception {
        try (FakeServer server = new FakeServer().with(new Rowset(1000));
             Connection c = DriverManager.getConnection(server.url())) {
            Statement st = c.createStatement();
            st.setFetchSize(10);
            ResultSet rs = st.executeQuery("select");
            rs.next();
            st.close();
            assertTrue(rs.isClosed());
            assertEquals(1, server.count(MessageType.CLOSE_CURSOR));
            assertEquals(0, server.lastSession.openCursors());
        }
    }

    @Test
    void reExecutingClosesThePreviousResult() throws Exception {
        try (FakeServer server = new FakeServer().with(new Rowset(1000));
             Connection c = DriverManager.getConnection(server.url());
             Statement st = c.createStatement()) {
            st.setFetchSize(10);
            ResultSet first = st.executeQuery("select");
            first.next();
            ResultSet second = st.executeQuery("select");
            assertTrue(first.isClosed());
            assertFalse(second.isClosed());
            assertEquals(1, server.count(MessageType.CLOSE_CURSOR));
        }
    }

    @Test
    void maxRowsIsEnforcedByTheClientToo() throws Exception {
        try (FakeServer server = new FakeServer().with(new Rowset(1000));
             Connection c = DriverManager.getConnection(server.url());
             Statement st = c.createStatement()) {
            st.setFetchSize(100);
            st.setMaxRows(150);
            ResultSet rs = st.executeQuery("select");
            int n = 0;
            while (rs.next()) {
                n++;
            }
            assertEquals(150, n);
            assertEquals(1, server.count(MessageType.CLOSE_CURSOR), "the rest of the cursor is released");
            assertEquals(150, ((org.phalanx.protocol.Execute) server.received.get(1)).maxRows(), "max rows is sent");
        }
    }

    @Test
    void positionQueriesWorkAcrossBatchBoundaries() throws Exception {
        try (FakeServer server = new FakeServer().with(new Rowset(20));
             Connection c = DriverManager.getConnection(server.url());
             Statement st = c.createStatement()) {
            st.setFetchSize(10);
            ResultSet rs = st.executeQuery("select");
            assertTrue(rs.isBeforeFirst());
            assertTrue(rs.next());
            assertTrue(rs.isFirst());
            for (int i = 2; i <= 10; i++) {
                rs.next();
            }
            assertFalse(rs.isLast(), "row 10 of 20: looks into the next batch");
            assertEquals(10, rs.getInt("ID"), "the current row survives the early fetch");
            rs.setFetchSize(5);
            while (rs.getRow() < 20) {
                assertTrue(rs.next());
            }
            assertTrue(rs.isLast());
            assertFalse(rs.next());
            assertTrue(rs.isAfterLast());
            assertEquals(0, rs.getRow());
            assertEquals(1, server.count(MessageType.FETCH));
        }
    }

    @Test
    void aFailedFetchIsReportedAndNeverLooksLikeTheEnd() throws Exception {
        FakeServer.Behaviour failingSecondFetch = new Rowset(100) {
            private int fetches;

            @Override
            MessageWriter fetch(int cursor, int size, FakeServer.Session s) {
                if (++fetches == 2) {
                    s.dropCursor(cursor);
                    return new ErrorReply("HY000", 5, "backend lost").toMessage();
                }
                return super.fetch(cursor, size, s);
            }
        };
        try (FakeServer server = new FakeServer().with(failingSecondFetch);
             Connection c = DriverManager.getConnection(server.url());
             Statement st = c.createStatement()) {
            st.setFetchSize(10);
            ResultSet rs = st.executeQuery("select");
            for (int i = 0; i < 20; i++) {
                assertTrue(rs.next());
            }
            SQLException e = assertThrows(SQLException.class, rs::next);
            assertEquals("backend lost", e.getMessage());
            assertThrows(SQLException.class, rs::next, "still failing, not a silent end of rows");
            rs.close();
            assertEquals(0, server.count(MessageType.CLOSE_CURSOR), "the server already dropped the cursor");
            assertTrue(st.executeQuery("select").next(), "the connection keeps serving");
        }
    }

    @Test
    void anEmptyResultIsNeitherBeforeFirstNorAfterLast() throws Exception {
        try (FakeServer server = new FakeServer().with(new Rowset(0));
             Connection c = DriverManager.getConnection(server.url());
             ResultSet rs = c.createStatement().executeQuery("select")) {
            assertFalse(rs.isBeforeFirst());
            assertFalse(rs.next());
            assertFalse(rs.isAfterLast());
            assertEquals("24000", assertThrows(SQLException.class, () -> rs.getInt(1)).getSQLState());
        }
    }

    @Test
    void scrollingAForwardOnlyResultIsRefused() throws Exception {
        try (FakeServer server = new FakeServer().with(new Rowset(5));
             Connection c = DriverManager.getConnection(server.url());
             ResultSet rs = c.createStatement().executeQuery("select")) {
            assertEquals(ResultSet.TYPE_FORWARD_ONLY, rs.getType());
            rs.next();
            assertEquals("24000", assertThrows(SQLException.class, rs::previous).getSQLState());
            assertThrows(SQLException.class, rs::first);
            assertThrows(SQLException.class, () -> rs.absolute(2));
            assertThrows(SQLException.class, () -> rs.setFetchDirection(ResultSet.FETCH_REVERSE));
        }
    }
}
