package org.phalanx.controller.net;

import org.junit.jupiter.api.Test;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.HelloOk;
import org.phalanx.protocol.MessageReader;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.Protocol;
import org.phalanx.protocol.ValueCodec;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Authentication and protocol violations, with raw sockets: a bad client loses only its own connection. */
class FrontEndProtocolTest extends FrontEndTestBase {

    @Test
    void helloOpensASession() throws IOException {
        try (TestClient c = client()) {
            HelloOk ok = c.login("demo", "demo", "secret");
            assertEquals(Protocol.VERSION, ok.version());
            assertEquals("Phalanx", ok.productName());
            assertTrue(ok.sessionId() > 0);
            c.ok(TestClient.message(MessageType.PING));
        }
    }

    @Test
    void aDriverOfTheOlderVersionIsServedInItsVersion() throws IOException {
        try (TestClient c = client()) {
            MessageReader reply = c.call(new org.phalanx.protocol.Hello(Protocol.OLDEST_VERSION, "demo", "demo",
                    "secret", Map.of()).toMessage());
            assertEquals(MessageType.HELLO_OK, reply.type());
            assertEquals(Protocol.OLDEST_VERSION, HelloOk.readBody(reply).version());
            c.ok(TestClient.message(MessageType.PING));
        }
    }

    @Test
    void randomBytesCloseThatConnectionAndNoOther() throws IOException {
        Random random = new Random(42);
        try (TestClient good = loggedIn(); TestClient bad = client(); TestClient badAfterLogin = loggedIn()) {
            byte[] garbage = new byte[4096];
            random.nextBytes(garbage);
            garbage[0] = 0x3A; // a length of ~1 GB: refused at once rather than waited for
            bad.sendRaw(garbage);
            random.nextBytes(garbage);
            garbage[0] = 0x7F;
            badAfterLogin.sendRaw(garbage);

            assertTrue(bad.closedByServer());
            assertTrue(badAfterLogin.closedByServer());
            good.ok(TestClient.message(MessageType.PING));
            assertEquals(MessageType.UPDATE_COUNT, good.call(execute("CREATE TABLE t(x)")).type());
        }
    }

    @Test
    void garbageInsideAWellFramedMessageClosesTheConnection() throws IOException {
        Random random = new Random(7);
        try (TestClient good = loggedIn(); TestClient bad = loggedIn()) {
            byte[] body = new byte[200];
            random.nextBytes(body);
            body[0] = MessageType.EXECUTE;
            bad.sendRaw(frame(body));
            assertTrue(bad.closedByServer());
            good.ok(TestClient.message(MessageType.PING));
        }
    }

    @Test
    void oversizedFrameClosesTheConnection() throws IOException {
        try (TestClient good = loggedIn(); TestClient bad = loggedIn()) {
            bad.sendRaw(header(MAX_FRAME + 1));
            assertTrue(bad.closedByServer());
            good.ok(TestClient.message(MessageType.PING));
        }
    }

    @Test
    void beforeAuthenticationEvenSmallerFramesAreRefused() throws IOException {
        try (TestClient c = client()) {
            c.sendRaw(header(ClientConnection.MAX_HELLO_FRAME + 1));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void helloWithBadMagicIsClosed() throws IOException {
        try (TestClient c = client()) {
            c.send(new MessageWriter(MessageType.HELLO).writeInt(0x48545450).writeShort(Protocol.VERSION)
                    .writeString("demo").writeString("demo").writeString("secret").writeInt(0));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void unsupportedProtocolVersionIsAnsweredThenClosed() throws IOException {
        try (TestClient c = client()) {
            ErrorReply error = TestClient.error(c.call(new org.phalanx.protocol.Hello((short) 99, "demo", "demo",
                    "secret", Map.of()).toMessage()));
            assertEquals("08004", error.sqlState());
            assertTrue(error.message().contains("version " + Protocol.VERSION), error.message());
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void wrongPasswordAndUnknownUserGetTheSameAnswer() throws IOException {
        ErrorReply wrongPassword;
        ErrorReply unknownUser;
        try (TestClient c = client()) {
            wrongPassword = TestClient.error(c.call(TestClient.hello("demo", "demo", "guess")));
            assertTrue(c.closedByServer());
        }
        try (TestClient c = client()) {
            unknownUser = TestClient.error(c.call(TestClient.hello("demo", "mallory", "secret")));
            assertTrue(c.closedByServer());
        }
        assertEquals(new ErrorReply("28000", 0, "invalid credentials"), wrongPassword);
        assertEquals(wrongPassword, unknownUser);
        try (TestClient c = client()) {
            assertEquals("28000", TestClient.error(c.call(TestClient.hello("demo", null, null))).sqlState());
        }
        assertTrue(sessions.isEmpty(), "no session for a failed login");
    }

    @Test
    void unknownVirtualDatabase() throws IOException {
        try (TestClient c = client()) {
            ErrorReply error = TestClient.error(c.call(TestClient.hello("nosuch", "demo", "secret")));
            assertEquals("08004", error.sqlState());
            assertTrue(error.message().contains("nosuch"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void aRequestBeforeHelloIsClosed() throws IOException {
        try (TestClient c = client()) {
            c.send(TestClient.message(MessageType.PING));
            assertTrue(c.closedByServer());
        }
        try (TestClient c = client()) {
            c.send(execute("SELECT 1"));
            assertTrue(c.closedByServer());
        }
        assertTrue(sessions.isEmpty());
    }

    @Test
    void aClientThatSaysNothingIsClosedAfterTheHelloTimeout() throws IOException {
        try (TestClient c = client()) {
            assertTrue(c.closedByServer());
        }
    }

    /** Idle between requests as long as it likes, but a frame left half sent must not hold its connection. */
    @Test
    void aFrameLeftHalfSentClosesTheConnectionAfterTheTimeout() throws Exception {
        try (TestClient good = loggedIn(); TestClient stuck = loggedIn()) {
            Thread.sleep(2 * HELLO_TIMEOUT.toMillis()); // idle: fine
            good.ok(TestClient.message(MessageType.PING));
            stuck.sendRaw(new byte[] {0, 0, 0, 100, MessageType.EXECUTE, 1, 2}); // 7 bytes of a 104-byte frame
            assertTrue(stuck.closedByServer());
            good.ok(TestClient.message(MessageType.PING));
        }
    }

    @Test
    void unknownMessageTypeClosesTheConnection() throws IOException {
        try (TestClient good = loggedIn(); TestClient bad = loggedIn()) {
            bad.send(new MessageWriter((byte) 0x77));
            assertTrue(bad.closedByServer());
            good.ok(TestClient.message(MessageType.PING));
        }
    }

    @Test
    void aSecondHelloIsAProtocolViolation() throws IOException {
        try (TestClient c = loggedIn()) {
            c.send(TestClient.hello("demo", "demo", "secret"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void truncatedAndOverlongMessagesCloseTheConnection() throws IOException {
        try (TestClient c = loggedIn()) {
            c.send(new MessageWriter(MessageType.FETCH).writeInt(1)); // the fetch size is missing
            assertTrue(c.closedByServer());
        }
        try (TestClient c = loggedIn()) {
            c.send(new MessageWriter(MessageType.PING).writeByte(0)); // a byte too many
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void aValueTheCodecCannotDecodeClosesTheConnection() throws IOException {
        try (TestClient c = loggedIn()) {
            // EXECUTE "SELECT ?" with a TIMESTAMP_TZ whose seconds overflow Instant
            c.send(new MessageWriter(MessageType.EXECUTE).writeByte(3).writeString("SELECT ?").writeInt(1)
                    .writeByte(ValueCodec.TIMESTAMP_TZ).writeLong(Long.MAX_VALUE).writeInt(0).writeInt(0)
                    .writeByte(0).writeInt(0).writeInt(0).writeInt(0).writeInt(0).writeBoolean(false));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void sqlErrorsAreAnsweredAndTheConnectionGoesOn() throws IOException {
        try (TestClient c = loggedIn()) {
            ErrorReply error = TestClient.error(c.call(execute("SELECT * FROM nosuch")));
            assertTrue(error.message().contains("no such table"), error.message());
            c.ok(TestClient.message(MessageType.PING));
        }
    }

    @Test
    void anUnexpectedRuntimeExceptionIsAnsweredWithXX000AndTheConnectionGoesOn() throws IOException {
        try (TestClient c = loggedIn()) {
            ErrorReply error = TestClient.error(c.call(execute("BOOM")));
            assertEquals("XX000", error.sqlState());
            assertTrue(error.message().contains("boom"), error.message());
            c.ok(TestClient.message(MessageType.PING));
            assertEquals(MessageType.RESULT_SET, c.call(execute("SELECT 1")).type());
        }
    }

    @Test
    void aClientThatDisconnectsMidTransactionIsRolledBack() throws Exception {
        try (TestClient c = loggedIn()) {
            assertEquals(MessageType.UPDATE_COUNT, c.call(execute("CREATE TABLE t(x INTEGER)")).type());
            c.ok(new MessageWriter(MessageType.SET_AUTO_COMMIT).writeBoolean(false));
            assertEquals(MessageType.UPDATE_COUNT, c.call(execute("INSERT INTO t VALUES (?)", 1)).type());
        }
        assertTrue(sessions.get(0).closed.await(5, TimeUnit.SECONDS), "session closed");
        assertEquals(0, rows(dir.resolve("demo.db"), "SELECT count(*) FROM t"));
    }

    @Test
    void transactionsCommit() throws Exception {
        try (TestClient c = loggedIn()) {
            c.call(execute("CREATE TABLE t(x INTEGER)"));
            c.ok(new MessageWriter(MessageType.SET_AUTO_COMMIT).writeBoolean(false));
            c.call(execute("INSERT INTO t VALUES (1)"));
            c.ok(TestClient.message(MessageType.ROLLBACK));
            c.call(execute("INSERT INTO t VALUES (2)"));
            c.ok(TestClient.message(MessageType.COMMIT));
            c.ok(new MessageWriter(MessageType.SET_ISOLATION).writeInt(Connection.TRANSACTION_SERIALIZABLE));
        }
        assertEquals(2, rows(dir.resolve("demo.db"), "SELECT sum(x) FROM t"));
    }

    @Test
    void closeIsAnsweredThenTheConnectionEnds() throws Exception {
        try (TestClient c = loggedIn()) {
            c.ok(TestClient.message(MessageType.CLOSE));
            assertTrue(c.closedByServer());
        }
        assertTrue(sessions.get(0).closed.await(5, TimeUnit.SECONDS));
        assertFalse(sessions.isEmpty());
    }

    private static int rows(Path db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static byte[] header(int length) {
        return new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length};
    }

    private static byte[] frame(byte[] body) {
        byte[] framed = new byte[body.length + 4];
        System.arraycopy(header(body.length), 0, framed, 0, 4);
        System.arraycopy(body, 0, framed, 4, body.length);
        return framed;
    }
}
