package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.Batch;
import org.phalanx.protocol.BatchResult;
import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.ResultSetReply;
import org.phalanx.protocol.RowBatch;
import org.phalanx.protocol.UpdateCount;

/**
 * Statement execution against a scripted server: "select..." returns rows, "fail..." an
 * error with the SQLState after the word, anything else an update count of 3 with key 7 when
 * keys are asked for. Batches fail at the element containing "dup".
 */
class StatementTest {
    private FakeServer server;
    private Connection connection;

    static final class Scripted extends FakeServer.Behaviour {
        @Override
        MessageWriter execute(Execute e, FakeServer.Session s) {
            if (e.sql().startsWith("select")) {
                return s.result(Rowset.COLUMNS, Rowset.generate(2), e.fetchSize(), e.scrollable());
            }
            if (e.sql().startsWith("fail")) {
                return new ErrorReply(e.sql().substring(5), 99, "scripted failure").toMessage();
            }
            ResultSetReply keys = e.keys() == Execute.NO_KEYS ? null
                    : new ResultSetReply(0, List.of(ColumnInfo.simple("id", Types.BIGINT, "BIGINT")),
                    new RowBatch(List.<Object[]>of(new Object[] {7L}), true));
            return new UpdateCount(3, keys).toMessage();
        }

        @Override
        MessageWriter batch(Batch b, FakeServer.Session s) {
            int n = b.sql() == null ? b.statements().size() : b.parameterSets().size();
            List<Long> counts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String text = b.sql() == null ? b.statements().get(i) : String.valueOf(b.parameterSets().get(i));
                if (text.contains("dup")) {
                    return new BatchResult(counts.stream().mapToLong(Long::longValue).toArray(),
                            new ErrorReply("23505", 7, "duplicate key")).toMessage();
                }
                counts.add((long) (i + 1));
            }
            return new BatchResult(counts.stream().mapToLong(Long::longValue).toArray(), null).toMessage();
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = new FakeServer().with(new Scripted());
        connection = DriverManager.getConnection(server.url());
    }

    @AfterEach
    void stop() throws Exception {
        connection.close();
        server.close();
    }

    private Execute lastExecute() {
        for (int i = server.received.size() - 1; i >= 0; i--) {
            if (server.received.get(i) instanceof Execute e) {
                return e;
            }
        }
        throw new AssertionError("no EXECUTE");
    }

    @Test
    void eachExecuteMethodSendsItsModeAndSettings() throws Exception {
        try (Statement st = connection.createStatement()) {
            st.setMaxRows(10);
            st.setQueryTimeout(5);
            st.setFetchSize(20);
            assertEquals(3, st.executeUpdate("update t set a = 1"));
            Execute e = lastExecute();
            assertEquals(Execute.UPDATE, e.mode());
            assertEquals(10, e.maxRows());
            assertEquals(5, e.queryTimeoutSeconds());
            assertEquals(20, e.fetchSize());
            assertFalse(e.scrollable());
            assertEquals(3, st.getUpdateCount());
            assertNull(st.getResultSet());

            ResultSet rs = st.executeQuery("select 1");
            assertEquals(Execute.QUERY, lastExecute().mode());
            assertSame(st, rs.getStatement());
            assertEquals(-1, st.getUpdateCount());

            assertTrue(st.execute("select 1"));
            assertEquals(Execute.ANY, lastExecute().mode());
            assertTrue(st.getResultSet().next());
            assertFalse(st.getMoreResults());
            assertNull(st.getResultSet());
            assertEquals(-1, st.getUpdateCount());

            assertFalse(st.execute("delete from t"));
            assertEquals(3L, st.getLargeUpdateCount());
            assertEquals(3L, st.executeLargeUpdate("delete from t"));
        }
    }

    @Test
    void serverErrorsBecomeTheMatchingSqlException() throws Exception {
        try (Statement st = connection.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate("fail 40001"));
            assertInstanceOf(SQLTransactionRollbackException.class, e);
            assertEquals("40001", e.getSQLState());
            assertEquals(99, e.getErrorCode());
            assertEquals("scripted failure", e.getMessage());
            assertEquals(3, st.executeUpdate("update t set a = 2"), "the connection keeps serving");
        }
    }

    @Test
    void theClientRefusesAMismatchedResultKindEvenIfTheServerDoesNot() throws Exception {
        try (Statement st = connection.createStatement()) {
            assertThrows(SQLException.class, () -> st.executeQuery("update t set a = 1"));
            assertThrows(SQLException.class, () -> st.executeUpdate("select 1"));
            assertEquals(0, server.lastSession.openCursors());
        }
    }

    @Test
    void generatedKeysAreReturnedWhenAskedFor() throws Exception {
        try (Statement st = connection.createStatement()) {
            st.executeUpdate("insert into t values (1)", Statement.RETURN_GENERATED_KEYS);
            assertEquals(Execute.AUTO_KEYS, lastExecute().keys());
            ResultSet keys = st.getGeneratedKeys();
            assertTrue(keys.next());
            assertEquals(7L, keys.getLong("id"));
            assertFalse(keys.next());

            st.executeUpdate("insert into t values (1)");
            assertEquals(Execute.NO_KEYS, lastExecute().keys());
            ResultSet none = st.getGeneratedKeys();
            assertFalse(none.next());
            assertEquals(0, none.getMetaData().getColumnCount());

            assertThrows(SQLFeatureNotSupportedException.class, () -> st.executeUpdate("x", new int[] {1}));
            assertThrows(SQLException.class, () -> st.executeUpdate("x", 12345));
        }
        try (PreparedStatement ps = connection.prepareStatement("insert into t values (?)", new String[] {"id"})) {
            ps.setInt(1, 1);
            ps.executeUpdate();
            assertEquals(Execute.NAMED_KEYS, lastExecute().keys());
            assertEquals(List.of("id"), lastExecute().keyColumns());
            ResultSet keys = ps.getGeneratedKeys();
            assertTrue(keys.next());
            assertEquals(7, keys.getInt(1));
        }
        try (PreparedStatement ps = connection.prepareStatement("insert into t values (1)", Statement.RETURN_GENERATED_KEYS)) {
            ps.execute();
            assertEquals(Execute.AUTO_KEYS, lastExecute().keys());
        }
    }

    @Test
    void statementBatchReturnsCountsAndIsResetAfterwards() throws Exception {
        try (Statement st = connection.createStatement()) {
            st.addBatch("insert a");
            st.addBatch("insert b");
            assertArrayEquals(new int[] {1, 2}, st.executeBatch());
            Batch sent = (Batch) server.received.get(server.received.size() - 1);
            assertNull(sent.sql());
            assertEquals(List.of("insert a", "insert b"), sent.statements());
            long batches = server.count(MessageType.BATCH);
            assertArrayEquals(new int[0], st.executeBatch(), "the batch was cleared");
            assertEquals(batches, server.count(MessageType.BATCH), "an empty batch sends nothing");
        }
    }

    @Test
    void aFailingBatchElementRaisesBatchUpdateExceptionWithTheCountsBeforeIt() throws Exception {
        try (Statement st = connection.createStatement()) {
            st.addBatch("insert a");
            st.addBatch("insert b");
            st.addBatch("insert dup");
            st.addBatch("insert c");
            BatchUpdateException e = assertThrows(BatchUpdateException.class, st::executeBatch);
            assertArrayEquals(new int[] {1, 2}, e.getUpdateCounts());
            assertArrayEquals(new long[] {1, 2}, e.getLargeUpdateCounts());
            assertEquals("23505", e.getSQLState());
            assertEquals(7, e.getErrorCode());
            assertInstanceOf(SQLIntegrityConstraintViolationException.class, e.getCause());
            assertArrayEquals(new int[0], st.executeBatch(), "reset after failure too");
        }
    }

    @Test
    void preparedBatchSendsOneSqlWithParameterSets() throws Exception {
        try (PreparedStatement ps = connection.prepareStatement("insert into t values (?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, "a");
            ps.addBatch();
            ps.setInt(1, 2);
            ps.setString(2, "b");
            ps.addBatch();
            assertArrayEquals(new long[] {1, 2}, ps.executeLargeBatch());
            Batch sent = (Batch) server.received.get(server.received.size() - 1);
            assertEquals("insert into t values (?, ?)", sent.sql());
            assertEquals(List.of(List.of(1, "a"), List.of(2, "b")), sent.parameterSets());

            ps.setInt(1, 3);
            ps.setString(2, "dup");
            ps.addBatch();
            BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
            assertArrayEquals(new int[0], e.getUpdateCounts());
            assertThrows(SQLException.class, () -> ps.addBatch("insert x"), "no SQL text on a prepared statement");
        }
    }

    @Test
    void closeOnCompletionClosesTheStatementWithItsResult() throws Exception {
        Statement st = connection.createStatement();
        st.closeOnCompletion();
        ResultSet rs = st.executeQuery("select 1");
        assertFalse(st.isClosed());
        rs.close();
        assertTrue(st.isClosed());
    }
}
