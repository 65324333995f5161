package org.phalanx.driver;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.phalanx.protocol.Batch;
import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.FrameIO;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.HelloOk;
import org.phalanx.protocol.MessageReader;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.MetadataRequest;
import org.phalanx.protocol.Protocol;
import org.phalanx.protocol.ResultSetReply;
import org.phalanx.protocol.RowBatch;

/**
 * A loopback server speaking the Phalanx protocol with canned replies, one thread per
 * connection. Tests override the {@link Behaviour} methods they need and inspect what arrived.
 */
final class FakeServer implements AutoCloseable {

    /** Replies to requests; the defaults answer OK or refuse. */
    static class Behaviour {
        MessageWriter hello(Hello h) {
            if ("bad".equals(h.password())) {
                return new ErrorReply("28000", 1045, "access denied for user " + h.user()).toMessage();
            }
            if (!"vdb".equals(h.vdb())) {
                return new ErrorReply("08004", 0, "unknown virtual database " + h.vdb()).toMessage();
            }
            return new HelloOk(Protocol.VERSION, "FakeDB", "3.14.15", 42, java.sql.Connection.TRANSACTION_READ_COMMITTED).toMessage();
        }

        MessageWriter execute(Execute e, Session s) {
            return new ErrorReply("42000", 0, "no canned reply for " + e.sql()).toMessage();
        }

        MessageWriter batch(Batch b, Session s) {
            return new ErrorReply("42000", 0, "no canned batch reply").toMessage();
        }

        MessageWriter metadata(MetadataRequest m, Session s) {
            return s.result(List.of(ColumnInfo.simple("TABLE_NAME", Types.VARCHAR, "VARCHAR")),
                    List.<Object[]>of(new Object[] {"t1"}, new Object[] {"t2"}).iterator(), 0, true);
        }

        MessageWriter fetch(int cursor, int size, Session s) {
            return s.fetch(cursor, size);
        }

        MessageWriter ok() {
            return new MessageWriter(MessageType.OK);
        }

        MessageWriter commit() {
            return ok();
        }

        /** OUTCOME: by default, as a controller that remembers no requests. */
        MessageWriter outcome(String clientSession, long number, long ageMillis) {
            return new ErrorReply("08006", 0, "not remembered here").toMessage();
        }
    }

    /** One connection's state: its open cursors. */
    final class Session {
        private final Map<Integer, Iterator<Object[]>> cursors = new HashMap<>();
        private final Map<Integer, Integer> cursorColumns = new HashMap<>();
        private int nextCursor = 1;

        /**
         * A RESULT_SET reply: the first batch of {@code fetchSize} rows (all if {@code all}), and a
         * cursor for the rest unless the first batch is the whole result.
         */
        MessageWriter result(List<ColumnInfo> columns, Iterator<Object[]> rows, int fetchSize, boolean all) {
            int size = fetchSize > 0 ? fetchSize : Protocol.DEFAULT_FETCH_SIZE;
            List<Object[]> first = take(rows, all ? Integer.MAX_VALUE : size);
            if (!rows.hasNext()) {
                return new ResultSetReply(0, columns, new RowBatch(first, true)).toMessage();
            }
            int id = nextCursor++;
            cursors.put(id, rows);
            cursorColumns.put(id, columns.size());
            return new ResultSetReply(id, columns, new RowBatch(first, false)).toMessage();
        }

        MessageWriter fetch(int cursor, int size) {
            Iterator<Object[]> rows = cursors.get(cursor);
            if (rows == null) {
                return new ErrorReply("24000", 0, "no open cursor " + cursor).toMessage();
            }
            fetchSizes.add(size);
            List<Object[]> batch = take(rows, size);
            boolean last = !rows.hasNext();
            if (last) {
                cursors.remove(cursor); // the server frees a cursor once it sends the last batch
            }
            MessageWriter w = new MessageWriter(MessageType.ROWS, 1024);
            new RowBatch(batch, last).write(w);
            return w;
        }

        /** Drops a cursor, as a server does when fetching from it failed. */
        void dropCursor(int cursor) {
            cursors.remove(cursor);
        }

        int openCursors() {
            return cursors.size();
        }
    }

    private static List<Object[]> take(Iterator<Object[]> rows, int n) {
        List<Object[]> batch = new ArrayList<>();
        while (batch.size() < n && rows.hasNext()) {
            batch.add(rows.next());
        }
        return batch;
    }

    /** An OUTCOME request as received. */
    record Outcome(String clientSession, long number, long ageMillis) {
    }

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    volatile Behaviour behaviour = new Behaviour();
    /** Every request type received, in order, across connections. */
    final List<Byte> requests = new CopyOnWriteArrayList<>();
    final List<Integer> fetchSizes = new CopyOnWriteArrayList<>();
    final List<Object> received = Collections.synchronizedList(new ArrayList<>());
    volatile Session lastSession;

    FakeServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::acceptLoop, "fake-phalanx-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    FakeServer with(Behaviour b) {
        behaviour = b;
        return this;
    }

    int port() {
        return server.getLocalPort();
    }

    String url() {
        return "jdbc:phalanx://127.0.0.1:" + port() + "/vdb?user=alice&password=secret";
    }

    long count(byte type) {
        return requests.stream().filter(t -> t == type).count();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                sockets.add(s);
                Thread t = new Thread(() -> serve(s), "fake-phalanx-session");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        Session session = new Session();
        lastSession = session;
        try (socket) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            while (true) {
                byte[] frame = FrameIO.read(in, Protocol.DEFAULT_MAX_FRAME);
                if (frame == null) {
                    return;
                }
                MessageReader r = new MessageReader(frame);
                requests.add(r.type());
                MessageWriter reply = dispatch(r, session);
                if (reply == null) {
                    return; // the behaviour drops the connection without a reply, as a crashed controller would
                }
                FrameIO.write(out, reply);
                if (r.type() == MessageType.CLOSE) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    private MessageWriter dispatch(MessageReader r, Session s) throws IOException {
        Behaviour b = behaviour;
        switch (r.type()) {
            case MessageType.HELLO: {
                Hello h = Hello.readBody(r);
                received.add(h);
                return b.hello(h);
            }
            case MessageType.EXECUTE: {
                Execute e = Execute.readBody(r);
                r.end();
                received.add(e);
                return b.execute(e, s);
            }
            case MessageType.BATCH: {
                Batch batch = Batch.readBody(r);
                r.end();
                received.add(batch);
                return b.batch(batch, s);
            }
            case MessageType.METADATA: {
                MetadataRequest m = MetadataRequest.readBody(r);
                r.end();
                received.add(m);
                return b.metadata(m, s);
            }
            case MessageType.FETCH:
                return b.fetch(r.readInt(), r.readInt(), s);
            case MessageType.CLOSE_CURSOR:
                s.cursors.remove(r.readInt());
                return b.ok();
            case MessageType.SET_AUTO_COMMIT, MessageType.SET_READ_ONLY:
                received.add(r.readBoolean());
                return b.ok();
            case MessageType.SET_ISOLATION:
                received.add(r.readInt());
                return b.ok();
            case MessageType.COMMIT:
                return b.commit();
            case MessageType.OUTCOME: {
                String clientSession = r.readString();
                long number = r.readLong();
                long age = r.readLong();
                received.add(new Outcome(clientSession, number, age));
                return b.outcome(clientSession, number, age);
            }
            default:
                return b.ok();
        }
    }

    /** Drops every connection without a reply, as a crashed controller would. */
    void dropConnections() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        dropConnections();
    }
}
