package org.phalanx.controller.net;

import org.phalanx.controller.result.ResultCursor;
import org.phalanx.engine.SqlState;
import org.phalanx.engine.UntypedText;
import org.phalanx.protocol.Batch;
import org.phalanx.protocol.BatchResult;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.MessageReader;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.MetadataRequest;
import org.phalanx.protocol.Protocol;
import org.phalanx.protocol.ProtocolException;
import org.phalanx.protocol.ResultSetReply;
import org.phalanx.protocol.RowBatch;
import org.phalanx.protocol.SqlNull;
import org.phalanx.protocol.Untyped;
import org.phalanx.requestmanager.api.BatchOutcome;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.RequestOutcome;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.api.TypedNull;

import java.sql.BatchUpdateException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Serves the requests of one authenticated connection: decodes a request, runs it on the
 * session, encodes the one reply. A request that does not follow the protocol is a
 * {@link ProtocolException} (the connection is closed); a failing request is an SQLException
 * (the caller answers ERROR and the connection goes on).
 */
final class RequestDispatcher {
    /** Soft limit on the rows of one batch, so a batch of wide rows still fits in a frame. */
    private static final long MAX_BATCH_BYTES = 8L * 1024 * 1024;

    private final Session session;
    private final OpenCursors cursors;
    private final int maxFrameBytes;
    private final long batchBytes;

    /** Answers OUTCOME: whether a request of an earlier connection was applied. */
    @FunctionalInterface
    interface OutcomeSource {
        RequestOutcome outcome(String clientSession, long number, long ageMillis);
    }

    private final OutcomeSource outcomes;
    /** The protocol version the client speaks: what an OUTCOME answer may hold. */
    private final short version;

    RequestDispatcher(Session session, OpenCursors cursors, int maxFrameBytes, OutcomeSource outcomes, short version) {
        this.session = session;
        this.outcomes = outcomes;
        this.version = version;
        this.cursors = cursors;
        this.maxFrameBytes = maxFrameBytes;
        this.batchBytes = Math.min(MAX_BATCH_BYTES, maxFrameBytes / 2);
    }

    MessageWriter dispatch(MessageReader request) throws ProtocolException, SQLException {
        switch (request.type()) {
            case MessageType.EXECUTE: {
                Execute execute = decode(() -> Execute.readBody(request));
                request.end();
                return execute(execute);
            }
            case MessageType.BATCH: {
                Batch batch = decode(() -> Batch.readBody(request));
                request.end();
                return batch(batch);
            }
            case MessageType.FETCH: {
                int cursorId = request.readInt();
                int fetchSize = request.readInt();
                request.end();
                return fetch(cursorId, fetchSize);
            }
            case MessageType.CLOSE_CURSOR: {
                int cursorId = request.readInt();
                request.end();
                cursors.close(cursorId);
                return ok();
            }
            case MessageType.SET_AUTO_COMMIT: {
                boolean autoCommit = request.readBoolean();
                request.end();
                session.setAutoCommit(autoCommit);
                return ok();
            }
            case MessageType.COMMIT:
                request.end();
                session.commit();
                return ok();
            case MessageType.ROLLBACK:
                request.end();
                session.rollback();
                return ok();
            case MessageType.SET_ISOLATION: {
                int level = request.readInt();
                request.end();
                session.setTransactionIsolation(level);
                return ok();
            }
            case MessageType.SET_READ_ONLY: {
                boolean readOnly = request.readBoolean();
                request.end();
                session.setReadOnly(readOnly);
                return ok();
            }
            case MessageType.OUTCOME: {
                String clientSession = request.readString();
                long number = request.readLong();
                long ageMillis = request.readLong();
                request.end();
                if (clientSession == null) {
                    throw new ProtocolException("OUTCOME without a client session");
                }
                return fitted(outcome(outcomes.outcome(clientSession, number, ageMillis)), 0);
            }
            case MessageType.METADATA: {
                MetadataRequest metadata = decode(() -> MetadataRequest.readBody(request));
                request.end();
                return metadata(metadata);
            }
            case MessageType.PING:
            case MessageType.CLOSE:
                request.end();
                return ok();
            case MessageType.HELLO:
                throw new ProtocolException("HELLO on a connection whose session is already open");
            default:
                throw new ProtocolException("unexpected message type 0x" + Integer.toHexString(request.type() & 0xFF));
        }
    }

    /**
     * Applied: UPDATE_COUNT with its count (-1: not known) and, from version 4, the keys it generated;
     * a batch run element by element (version 4): BATCH_RESULT with the count of each element the log
     * holds, and their keys (version 4; a batch run as one transaction too); not applied: ERROR with
     * vendor code {@link Protocol#REQUEST_NOT_APPLIED}; no answer: ERROR 08006 saying why. A version-3
     * driver asks about no request with keys, and takes any answer for a batch as "every element
     * applied": it is told so for a batch run as one transaction, and gets no answer for one run
     * element by element, as before.
     */
    private MessageWriter outcome(RequestOutcome outcome) throws SQLException {
        boolean v3 = version < Protocol.OUTCOME_WITH_RESULTS_VERSION;
        if (outcome instanceof RequestOutcome.Applied applied) {
            Result.Cached keys = v3 ? null : applied.generatedKeys();
            return new org.phalanx.protocol.UpdateCount(applied.count(), keys == null ? null : wholeResult(keys)).toMessage();
        }
        if (outcome instanceof RequestOutcome.BatchApplied batch) {
            if (v3 && batch.whole()) {
                return new org.phalanx.protocol.UpdateCount(-1, null).toMessage();
            }
            if (v3) {
                return new ErrorReply(SqlState.CONNECTION_FAILURE.code(), 0, "whether the request was applied is not"
                        + " known: it was a batch run element by element, which protocol version " + version
                        + " cannot be answered about").toMessage();
            }
            Result.Cached keys = batch.generatedKeys();
            return new BatchResult(batch.counts(), null, keys == null ? null : wholeResult(keys)).toMessage();
        }
        if (outcome instanceof RequestOutcome.NotApplied) {
            return new ErrorReply(SqlState.CONNECTION_FAILURE.code(), Protocol.REQUEST_NOT_APPLIED,
                    "the request was not applied").toMessage();
        }
        return new ErrorReply(SqlState.CONNECTION_FAILURE.code(), 0, "whether the request was applied is not known: "
                + ((RequestOutcome.Unknown) outcome).why()).toMessage();
    }

    @FunctionalInterface
    private interface Decoder<T> {
        T read() throws ProtocolException;
    }

    /** A codec that trips over a malformed value with a RuntimeException still means a malformed message. */
    private static <T> T decode(Decoder<T> decoder) throws ProtocolException {
        try {
            return decoder.read();
        } catch (RuntimeException e) {
            throw new ProtocolException("malformed message: " + e);
        }
    }

    private MessageWriter execute(Execute e) throws ProtocolException, SQLException {
        Request request = new Request(e.sql(), parameters(e.params()), expect(e.mode()), keyColumns(e),
                e.maxRows(), e.fetchSize(), e.queryTimeoutSeconds());
        Result result = session.execute(request);
        if (result instanceof Result.Rows rows) {
            return firstBatch(openCursor(rows, e.maxRows()), e);
        }
        if (result instanceof Result.Cached cached) {
            return firstBatch(ResultCursor.of(cached, e.maxRows()), e);
        }
        return updateCount((Result.UpdateCount) result);
    }

    private MessageWriter firstBatch(ResultCursor cursor, Execute e) throws SQLException {
        int cursorId = 0;
        try {
            // a scrollable client keeps the whole result, so it gets it at once
            RowBatch batch = e.scrollable() ? cursor.rest() : cursor.next(fetchSize(e.fetchSize()), batchBytes);
            if (batch.last()) {
                cursor.close();
            } else {
                cursorId = cursors.register(cursor);
            }
            return fitted(new ResultSetReply(cursorId, cursor.columns(), batch).toMessage(), cursorId);
        } catch (SQLException | RuntimeException ex) {
            cursors.close(cursorId);
            cursor.close();
            throw ex;
        }
    }

    private MessageWriter fetch(int cursorId, int fetchSize) throws SQLException {
        ResultCursor cursor = cursors.get(cursorId);
        if (cursor == null) {
            throw new SQLException("no open cursor " + cursorId + " (it was closed or fully read)",
                    SqlState.INVALID_CURSOR_STATE.code());
        }
        try {
            RowBatch batch = cursor.next(fetchSize(fetchSize), batchBytes);
            if (batch.last()) {
                cursors.close(cursorId);
            }
            MessageWriter reply = new MessageWriter(MessageType.ROWS, 1024);
            batch.write(reply);
            return fitted(reply, cursorId);
        } catch (SQLException | RuntimeException ex) {
            // a cursor that failed mid-way cannot be resumed
            cursors.close(cursorId);
            throw ex;
        }
    }

    private MessageWriter updateCount(Result.UpdateCount result) throws SQLException {
        try {
            MessageWriter reply = new MessageWriter(MessageType.UPDATE_COUNT, 64);
            reply.writeLong(result.count());
            Result.Cached keys = result.generatedKeys();
            reply.writeBoolean(keys != null);
            if (keys != null) {
                wholeResult(keys).writeBody(reply);
            }
            return fitted(reply, 0);
        } finally {
            // the update is done: failing to close detached keys must not turn it into an error
            closeQuietly(result);
        }
    }

    private MessageWriter metadata(MetadataRequest m) throws SQLException {
        List<Object> args = new ArrayList<>(m.args().size());
        for (Object a : m.args()) {
            // DatabaseMetaData takes Java null for "no filter"
            args.add(a instanceof SqlNull ? null : a);
        }
        return fitted(wholeResult(session.metadata(m.method(), args)).toMessage(), 0);
    }

    private MessageWriter batch(Batch b) throws ProtocolException, SQLException {
        try {
            if (b.sql() == null) {
                return new BatchResult(session.executeBatch(b.statements(), b.queryTimeoutSeconds()), null).toMessage();
            }
            List<List<Object>> sets = new ArrayList<>(b.parameterSets().size());
            for (List<Object> set : b.parameterSets()) {
                sets.add(parameters(set));
            }
            BatchOutcome outcome = session.executeBatch(b.sql(), sets, keyColumns(b.keys(), b.keyColumns()),
                    b.queryTimeoutSeconds());
            Result.Cached keys = outcome.generatedKeys();
            return fitted(new BatchResult(outcome.counts(), null, keys == null ? null : wholeResult(keys)).toMessage(), 0);
        } catch (BatchUpdateException e) {
            return new BatchResult(countsBefore(e), ErrorReplies.of(e)).toMessage();
        }
    }

    private static long[] countsBefore(BatchUpdateException e) {
        long[] large = e.getLargeUpdateCounts();
        if (large != null) {
            return large;
        }
        int[] counts = e.getUpdateCounts();
        return counts == null ? new long[0] : java.util.Arrays.stream(counts).asLongStream().toArray();
    }

    /** Every row of a result held in memory in one RESULT_SET body (cursor 0). */
    private static ResultSetReply wholeResult(Result.Cached result) throws SQLException {
        ResultCursor cursor = ResultCursor.of(result, 0);
        return new ResultSetReply(0, cursor.columns(), cursor.rest());
    }

    private static ResultCursor openCursor(Result.Rows rows, int maxRows) throws SQLException {
        try {
            return ResultCursor.open(rows, maxRows);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(rows.resultSet());
            closeQuietly(rows);
            throw e;
        }
    }

    /**
     * A reply larger than the client accepts would break its connection; answer ERROR instead
     * (and drop the cursor it belongs to) so the connection stays usable.
     */
    private MessageWriter fitted(MessageWriter reply, int cursorId) {
        if (reply.payloadLength() <= maxFrameBytes) {
            return reply;
        }
        cursors.close(cursorId);
        return new ErrorReply(SqlState.PROGRAM_LIMIT_EXCEEDED.code(), 0, "the reply of " + reply.payloadLength()
                + " bytes exceeds the frame limit of " + maxFrameBytes + " bytes").toMessage();
    }

    private static List<Object> parameters(List<Object> wire) {
        List<Object> params = new ArrayList<>(wire.size());
        for (Object p : wire) {
            params.add(p instanceof SqlNull n ? new TypedNull(n.sqlType()) : p instanceof Untyped u ? new UntypedText(u.text()) : p);
        }
        return params;
    }

    private static Request.Expect expect(byte mode) {
        return switch (mode) {
            case Execute.QUERY -> Request.Expect.ROWS;
            case Execute.UPDATE -> Request.Expect.UPDATE_COUNT;
            default -> Request.Expect.ANY;
        };
    }

    private static List<String> keyColumns(Execute e) throws ProtocolException {
        return keyColumns(e.keys(), e.keyColumns());
    }

    /** The generated keys a request wants, as {@link Request#keyColumns()} takes them. */
    private static List<String> keyColumns(byte keys, List<String> columns) throws ProtocolException {
        switch (keys) {
            case Execute.NO_KEYS:
                return null;
            case Execute.AUTO_KEYS:
                return List.of();
            default:
                if (columns.contains(null)) {
                    throw new ProtocolException("null generated key column name");
                }
                return List.copyOf(columns);
        }
    }

    private static int fetchSize(int requested) {
        return requested > 0 ? requested : Protocol.DEFAULT_FETCH_SIZE;
    }

    private static MessageWriter ok() {
        return new MessageWriter(MessageType.OK, 8);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // already failing; the first error is the one to report
            }
        }
    }
}
