package org.phalanx.controller.net;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.Batch;
import org.phalanx.protocol.BatchResult;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.MessageReader;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.MetadataRequest;
import org.phalanx.protocol.ResultSetReply;
import org.phalanx.protocol.RowBatch;
import org.phalanx.protocol.SqlNull;

import java.io.IOException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Results sent batch by batch over a real SQLite database, cursors, keys, metadata and batches. */
class ResultPagingTest extends FrontEndTestBase {
    private static final String ALL = "SELECT id, name FROM items ORDER BY id";

    @BeforeEach
    void items() throws IOException {
        try (TestClient c = loggedIn()) {
            c.call(execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT)"));
            c.call(execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25)"
                    + " INSERT INTO items(id, name) SELECT i, 'item ' || i FROM n"));
        }
    }

    @Test
    void rowsComeInBatchesOfTheFetchSize() throws IOException {
        try (TestClient c = loggedIn()) {
            ResultSetReply first = resultSet(c.call(query(ALL, 10, 0, false)));
            assertNotEquals(0, first.cursorId());
            assertEquals(List.of("id", "name"), first.columns().stream().map(col -> col.label()).toList());
            assertEquals(Types.INTEGER, first.columns().get(0).jdbcType());
            assertEquals(ids(1, 10), ids(first.firstBatch()));
            assertFalse(first.firstBatch().last());
            assertArrayEquals(new Object[] {1, "item 1"}, first.firstBatch().rows().get(0));

            RowBatch second = rows(c.call(fetch(first.cursorId(), 10)));
            assertEquals(ids(11, 20), ids(second));
            assertFalse(second.last());
            RowBatch third = rows(c.call(fetch(first.cursorId(), 10)));
            assertEquals(ids(21, 25), ids(third));
            assertTrue(third.last());
            assertEquals(0, session().openResults.get(), "the finished result is closed");

            assertEquals("24000", TestClient.error(c.call(fetch(first.cursorId(), 10))).sqlState());
        }
    }

    @Test
    void aResultEndingAtABatchBoundaryIsFinishedWithThatBatch() throws IOException {
        try (TestClient c = loggedIn()) {
            ResultSetReply whole = resultSet(c.call(query("SELECT id FROM items WHERE id <= 10", 10, 0, false)));
            assertEquals(0, whole.cursorId());
            assertTrue(whole.firstBatch().last());
            assertEquals(10, whole.firstBatch().rows().size());

            ResultSetReply paged = resultSet(c.call(query("SELECT id FROM items WHERE id <= 20", 10, 0, false)));
            RowBatch rest = rows(c.call(fetch(paged.cursorId(), 10)), 1);
            assertEquals(10, rest.rows().size());
            assertTrue(rest.last());
            assertEquals(0, session().openResults.get());
        }
    }

    @Test
    void fetchSizeZeroMeansTheDefault() throws IOException {
        try (TestClient c = loggedIn()) {
            ResultSetReply reply = resultSet(c.call(query(ALL, 0, 0, false)));
            assertEquals(0, reply.cursorId());
            assertEquals(25, reply.firstBatch().rows().size());
        }
    }

    @Test
    void maxRowsIsHonoured() throws IOException {
        try (TestClient c = loggedIn()) {
            ResultSetReply first = resultSet(c.call(query(ALL, 5, 7, false)));
            assertEquals(ids(1, 5), ids(first.firstBatch()));
            RowBatch rest = rows(c.call(fetch(first.cursorId(), 5)));
            assertEquals(ids(6, 7), ids(rest));
            assertTrue(rest.last());
            assertEquals(0, session().openResults.get());
        }
    }

    @Test
    void aScrollableResultComesWhole() throws IOException {
        try (TestClient c = loggedIn()) {
            ResultSetReply reply = resultSet(c.call(query(ALL, 10, 0, true)));
            assertEquals(0, reply.cursorId());
            assertEquals(ids(1, 25), ids(reply.firstBatch()));
            assertTrue(reply.firstBatch().last());
        }
    }

    @Test
    void closingACursorReleasesItsResult() throws IOException {
        try (TestClient c = loggedIn()) {
            ResultSetReply first = resultSet(c.call(query(ALL, 10, 0, false)));
            assertEquals(1, session().openResults.get());
            c.ok(new MessageWriter(MessageType.CLOSE_CURSOR).writeInt(first.cursorId()));
            assertEquals(0, session().openResults.get());
            assertEquals("24000", TestClient.error(c.call(fetch(first.cursorId(), 10))).sqlState());
            c.ok(new MessageWriter(MessageType.CLOSE_CURSOR).writeInt(12345)); // unknown: nothing to do
        }
    }

    @Test
    void openCursorsAreClosedWithTheirConnection() throws Exception {
        SqliteSession session;
        try (TestClient c = loggedIn()) {
            int a = resultSet(c.call(query(ALL, 3, 0, false))).cursorId();
            int b = resultSet(c.call(query(ALL, 3, 0, false))).cursorId();
            assertNotEquals(a, b);
            session = session();
            assertEquals(2, session.openResults.get());
        }
        assertTrue(session.closed.await(5, TimeUnit.SECONDS));
        assertEquals(0, session.openResults.get());
    }

    @Test
    void nullsCarryTheirType() throws IOException {
        try (TestClient c = loggedIn()) {
            c.call(execute("INSERT INTO items(id, name) VALUES (?, ?)", 100, new SqlNull(Types.VARCHAR)));
            ResultSetReply reply = resultSet(c.call(execute("SELECT name FROM items WHERE id = 100")));
            assertEquals(new SqlNull(reply.columns().get(0).jdbcType()), reply.firstBatch().rows().get(0)[0]);
        }
    }

    @Test
    void updateCountWithGeneratedKeys() throws IOException {
        try (TestClient c = loggedIn()) {
            MessageReader reply = c.call(new Execute(Execute.UPDATE, "INSERT INTO items(name) VALUES (?)",
                    List.of("new"), Execute.AUTO_KEYS, List.of(), 0, 0, 0, false).toMessage());
            assertEquals(MessageType.UPDATE_COUNT, reply.type());
            assertEquals(1, reply.readLong());
            assertTrue(reply.readBoolean());
            ResultSetReply keys = ResultSetReply.readBody(reply);
            reply.end();
            assertEquals(0, keys.cursorId());
            assertEquals(1, keys.firstBatch().rows().size());
            assertEquals(26, keys.firstBatch().rows().get(0)[0]);
            assertEquals(0, session().openResults.get(), "the keys were closed");

            MessageReader plain = c.call(execute("UPDATE items SET name = 'x' WHERE id <= 3"));
            assertEquals(MessageType.UPDATE_COUNT, plain.type());
            assertEquals(3, plain.readLong());
            assertFalse(plain.readBoolean());
            plain.end();
        }
    }

    @Test
    void metadataComesWholeWithNullArgumentsAsJavaNull() throws IOException {
        try (TestClient c = loggedIn()) {
            MessageReader reply = c.call(new MetadataRequest("getTables",
                    Arrays.asList(new SqlNull(Types.VARCHAR), new SqlNull(Types.VARCHAR), "items", "TABLE"))
                    .toMessage());
            ResultSetReply tables = resultSet(reply);
            assertEquals(0, tables.cursorId());
            assertEquals(1, tables.firstBatch().rows().size());
            int nameColumn = tables.columns().stream().map(col -> col.label()).toList().indexOf("TABLE_NAME");
            assertEquals("items", tables.firstBatch().rows().get(0)[nameColumn]);
            assertEquals(0, session().openResults.get());

            assertEquals("0A000", TestClient.error(c.call(new MetadataRequest("getNothing", List.of()).toMessage()))
                    .sqlState());
        }
    }

    @Test
    void batches() throws IOException {
        try (TestClient c = loggedIn()) {
            List<List<Object>> sets = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                sets.add(List.of("batch " + i));
            }
            BatchResult prepared = batchResult(c.call(new Batch("INSERT INTO items(name) VALUES (?)", List.of(),
                    sets, 0).toMessage()));
            assertArrayEquals(new long[] {1, 1, 1}, prepared.counts());
            assertNull(prepared.error());

            BatchResult failed = batchResult(c.call(new Batch(null, List.of(
                    "UPDATE items SET name = 'a' WHERE id = 1",
                    "INSERT INTO nosuch VALUES (1)",
                    "UPDATE items SET name = 'b' WHERE id = 2"), List.of(), 0).toMessage()));
            assertTrue(failed.error() != null && failed.error().message().contains("nosuch"), String.valueOf(failed.error()));
            c.ok(TestClient.message(MessageType.PING));
        }
    }

    @Test
    void wideRowsComeInSmallerBatchesSoEachFitsInAFrame() throws IOException {
        try (TestClient c = loggedIn()) {
            c.call(execute("CREATE TABLE wide(id INTEGER, data BLOB)"));
            c.call(execute("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19)"
                    + " INSERT INTO wide SELECT i, randomblob(10000) FROM n"));
            ResultSetReply first = resultSet(c.call(query("SELECT id, data FROM wide ORDER BY id", 100, 0, false)));
            int received = first.firstBatch().rows().size();
            assertTrue(received < 20, "a 100-row batch of 10 KB rows would not fit in " + MAX_FRAME + " bytes");
            assertFalse(first.firstBatch().last());
            RowBatch batch;
            do {
                batch = rows(c.call(fetch(first.cursorId(), 100)));
                received += batch.rows().size();
            } while (!batch.last());
            assertEquals(20, received);
        }
    }

    @Test
    void aRowLargerThanAFrameIsAnErrorNotABrokenConnection() throws IOException {
        try (TestClient c = loggedIn()) {
            ErrorReply error = TestClient.error(c.call(query("SELECT randomblob(" + (MAX_FRAME + 1) + ")", 10, 0,
                    false)));
            assertEquals("54000", error.sqlState());
            assertEquals(0, session().openResults.get());
            c.ok(TestClient.message(MessageType.PING));
        }
    }

    private SqliteSession session() {
        return sessions.get(sessions.size() - 1);
    }

    private static MessageWriter fetch(int cursorId, int fetchSize) {
        return new MessageWriter(MessageType.FETCH).writeInt(cursorId).writeInt(fetchSize);
    }

    private static ResultSetReply resultSet(MessageReader reply) throws IOException {
        if (reply.type() == MessageType.ERROR) {
            throw new AssertionError(ErrorReply.readBody(reply).toString());
        }
        assertEquals(MessageType.RESULT_SET, reply.type());
        ResultSetReply r = ResultSetReply.readBody(reply);
        reply.end();
        return r;
    }

    private static RowBatch rows(MessageReader reply) throws IOException {
        return rows(reply, 2);
    }

    private static RowBatch rows(MessageReader reply, int columns) throws IOException {
        assertEquals(MessageType.ROWS, reply.type());
        RowBatch batch = RowBatch.read(reply, columns);
        reply.end();
        return batch;
    }

    private static BatchResult batchResult(MessageReader reply) throws IOException {
        if (reply.type() == MessageType.ERROR) {
            throw new AssertionError(ErrorReply.readBody(reply).toString());
        }
        assertEquals(MessageType.BATCH_RESULT, reply.type());
        BatchResult r = BatchResult.readBody(reply);
        reply.end();
        return r;
    }

    private static List<Integer> ids(int from, int to) {
        List<Integer> ids = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            ids.add(i);
        }
        return ids;
    }

    private static List<Object> ids(RowBatch batch) {
        List<Object> ids = new ArrayList<>();
        for (Object[] row : batch.rows()) {
            assertInstanceOf(Integer.class, row[0]);
            ids.add(row[0]);
        }
        return ids;
    }
}
