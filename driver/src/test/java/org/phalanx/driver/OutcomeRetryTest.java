package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.Batch;
import org.phalanx.protocol.BatchResult;
import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.Protocol;
import org.phalanx.protocol.ResultSetReply;
import org.phalanx.protocol.RowBatch;
import org.phalanx.protocol.UpdateCount;

/**
 * A write in auto-commit or a commit lost with its controller: the driver asks the next controller
 * (OUTCOME) whether it was applied, and answers from that, sends it again, or reports.
 */
class OutcomeRetryTest {
    private FakeServer lost;
    private FakeServer next;

    /** The first controller: its connections drop on any write or commit, unanswered. */
    private static final class Crashing extends FakeServer.Behaviour {
        @Override
        MessageWriter execute(Execute e, FakeServer.Session s) {
            return null;
        }

        @Override
        MessageWriter batch(Batch b, FakeServer.Session s) {
            return null;
        }

        @Override
        MessageWriter commit() {
            return null;
        }
    }

    /** The next controller: answers OUTCOME as told, and writes with a count of 1. */
    private static final class Answering extends FakeServer.Behaviour {
        private final MessageWriter answer;

        Answering(MessageWriter answer) {
            this.answer = answer;
        }

        @Override
        MessageWriter execute(Execute e, FakeServer.Session s) {
            return new UpdateCount(1, null).toMessage();
        }

        @Override
        MessageWriter outcome(String clientSession, long number, long ageMillis) {
            return answer;
        }
    }

    private static MessageWriter applied(long count) {
        return new UpdateCount(count, null).toMessage();
    }

    private static MessageWriter notApplied() {
        return new ErrorReply("08006", Protocol.REQUEST_NOT_APPLIED, "the request was not applied").toMessage();
    }

    @BeforeEach
    void start() throws Exception {
        lost = new FakeServer().with(new Crashing());
        next = new FakeServer();
    }

    @AfterEach
    void stop() throws Exception {
        lost.close();
        next.close();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + lost.port() + ",127.0.0.1:" + next.port()
                + "/vdb?user=alice&password=secret");
    }

    private FakeServer.Outcome askedAbout() {
        return next.received.stream().filter(o -> o instanceof FakeServer.Outcome).map(o -> (FakeServer.Outcome) o)
                .findFirst().orElseThrow(() -> new AssertionError("no OUTCOME asked"));
    }

    private long executesOnNext() {
        return next.received.stream().filter(o -> o instanceof Execute).count();
    }

    /**
     * With one controller, a write whose connection drops after it was sent fails with 08006 saying
     * its outcome is unknown (it may have been carried out: an outside tester found the row of such a
     * write applied, while the message said only that the controller closed the connection).
     */
    @Test
    void aWriteLostAfterItWasSentToTheOnlyControllerIsReportedWithItsOutcomeUnknown() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + lost.port()
                + "/vdb?user=alice&password=secret"); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE t SET x = 1"));
            assertEquals("08006", e.getSQLState());
            assertTrue(e.getMessage().startsWith("the outcome of the statement is unknown"), e.getMessage());
        }
    }

    @Test
    void anAppliedWriteAnswersWithItsCountAndIsNotSentAgain() throws Exception {
        next.with(new Answering(applied(3)));
        try (Connection c = connect(); Statement s = c.createStatement()) {
            assertEquals(3, s.executeUpdate("UPDATE t SET x = 1"));
        }
        Hello hello = (Hello) lost.received.get(0);
        FakeServer.Outcome asked = askedAbout();
        assertEquals(hello.properties().get(Protocol.CLIENT_SESSION), asked.clientSession(),
                "asked about the lost connection");
        assertEquals(1, asked.number(), "the first request after HELLO is number 1");
        assertTrue(asked.ageMillis() >= 0);
        assertEquals(0, executesOnNext());
    }

    @Test
    void aWriteNotAppliedIsSentAgain() throws Exception {
        next.with(new Answering(notApplied()));
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("UPDATE t SET x = ?")) {
            ps.setInt(1, 5);
            assertEquals(1, ps.executeUpdate());
        }
        assertEquals(1, executesOnNext());
    }

    @Test
    void requestsAreNumberedFromHello() throws Exception {
        next.with(new Answering(applied(1)));
        lost.with(new FakeServer.Behaviour() {
            private int executes;

            @Override
            MessageWriter execute(Execute e, FakeServer.Session s) {
                return ++executes < 3 ? new UpdateCount(1, null).toMessage() : null;
            }
        });
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE t SET x = 1");
            c.setReadOnly(false); // no request: already so
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            s.executeUpdate("UPDATE t SET x = 2");
            s.executeUpdate("UPDATE t SET x = 3");
        }
        assertEquals(4, askedAbout().number(), "two writes and a setting before it");
    }

    @Test
    void aCommitAppliedSucceedsAndOneNotAppliedReportsItsTransactionRolledBack() throws Exception {
        next.with(new Answering(applied(0)));
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            c.commit();
        }
        next.with(new Answering(notApplied()));
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            SQLException e = assertThrows(SQLException.class, c::commit);
            assertEquals("40001", e.getSQLState(), e.getMessage());
        }
    }

    @Test
    void anAppliedBatchSucceedsWithoutCounts() throws Exception {
        next.with(new Answering(applied(0)));
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
            ps.setInt(1, 1);
            ps.addBatch();
            ps.setInt(1, 2);
            ps.addBatch();
            assertArrayEquals(new int[] {Statement.SUCCESS_NO_INFO, Statement.SUCCESS_NO_INFO}, ps.executeBatch());
        }
        assertEquals(0, next.received.stream().filter(o -> o instanceof Batch).count());
    }

    @Test
    void withoutAnAnswerTheOutcomeIsReportedUnknown() throws Exception {
        next.with(new Answering(new ErrorReply("08006", 0, "not remembered here").toMessage()));
        try (Connection c = connect(); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE t SET x = 1"));
            assertEquals("08006", e.getSQLState());
            assertTrue(e.getMessage().contains("is unknown") && e.getMessage().contains("not remembered here"),
                    e.getMessage());
        }
        next.with(new Answering(applied(-1)));
        try (Connection c = connect(); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE t SET x = 1"));
            assertTrue(e.getMessage().contains("was applied, but its update count is not known"), e.getMessage());
        }
        assertEquals(0, executesOnNext());
    }

    private static ResultSetReply keys(long... values) {
        List<Object[]> rows = new java.util.ArrayList<>();
        for (long v : values) {
            rows.add(new Object[] {v});
        }
        return new ResultSetReply(0, List.of(ColumnInfo.simple("id", Types.BIGINT, "INTEGER")), new RowBatch(rows, true));
    }

    @Test
    void anAppliedWriteThatAskedForKeysAnswersTheKeysItGeneratedAndIsNotSentAgain() throws Exception {
        next.with(new Answering(new UpdateCount(2, keys(41, 42)).toMessage()));
        try (Connection c = connect(); Statement s = c.createStatement()) {
            assertEquals(2, s.executeUpdate("INSERT INTO t VALUES (1), (2)", Statement.RETURN_GENERATED_KEYS));
            try (ResultSet rs = s.getGeneratedKeys()) {
                assertTrue(rs.next());
                assertEquals(41, rs.getLong(1));
                assertTrue(rs.next());
                assertEquals(42, rs.getLong(1));
                assertFalse(rs.next());
            }
        }
        assertEquals(0, executesOnNext());
    }

    @Test
    void anAppliedWriteWhoseKeysWereNotKeptIsReportedAppliedNotSentAgain() throws Exception {
        next.with(new Answering(applied(1)));
        try (Connection c = connect(); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO t VALUES (1)", Statement.RETURN_GENERATED_KEYS));
            assertTrue(e.getMessage().contains("was applied, but the keys it generated are not known"), e.getMessage());
        }
        assertEquals(0, executesOnNext());
    }

    @Test
    void aBatchRunElementByElementAnswersEachElementsCountAndKeys() throws Exception {
        next.with(new Answering(new BatchResult(new long[] {1, 1}, null, keys(7, 8)).toMessage()));
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            ps.setInt(1, 1);
            ps.addBatch();
            ps.setInt(1, 2);
            ps.addBatch();
            assertArrayEquals(new int[] {1, 1}, ps.executeBatch());
            try (ResultSet rs = ps.getGeneratedKeys()) {
                assertTrue(rs.next());
                assertEquals(7, rs.getLong(1));
                assertTrue(rs.next());
                assertEquals(8, rs.getLong(1));
            }
        }
        assertEquals(0, next.received.stream().filter(o -> o instanceof Batch).count());
    }

    @Test
    void aBatchCutShortReportsTheElementsAppliedAndSendsNothingAgain() throws Exception {
        next.with(new Answering(new BatchResult(new long[] {1}, null).toMessage()));
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.addBatch("INSERT INTO t VALUES (1)");
            s.addBatch("INSERT INTO t VALUES (2)");
            s.addBatch("INSERT INTO t VALUES (3)");
            BatchUpdateException e = assertThrows(BatchUpdateException.class, s::executeBatch);
            assertArrayEquals(new int[] {1}, e.getUpdateCounts(), "only the first element was applied");
            assertEquals("08006", e.getSQLState());
            assertTrue(e.getMessage().contains("cut short after element 1 of 3"), e.getMessage());
        }
        assertEquals(0, next.received.stream().filter(o -> o instanceof Batch).count());
    }
}
