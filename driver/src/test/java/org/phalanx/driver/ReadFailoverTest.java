package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.MessageType;

/**
 * A plain read in auto-commit goes on through more than one failing controller: the controller it
 * fails over to may fail too (a follower closes its read-only sessions when it becomes the
 * primary), while the read runs there or while the session is being put back.
 */
class ReadFailoverTest {
    private final FakeServer[] servers = new FakeServer[3];

    /** Answers every statement with one row holding {@code value}. */
    private static class Answering extends FakeServer.Behaviour {
        private final long value;

        Answering(long value) {
            this.value = value;
        }

        @Override
        MessageWriter execute(Execute e, FakeServer.Session s) {
            return s.result(List.of(ColumnInfo.simple("n", Types.BIGINT, "BIGINT")),
                    List.<Object[]>of(new Object[] {value}).iterator(), 0, true);
        }
    }

    /** Drops the connection on every statement, as a controller that fails under it. */
    private static final class Dropping extends FakeServer.Behaviour {
        @Override
        MessageWriter execute(Execute e, FakeServer.Session s) {
            return null;
        }
    }

    @BeforeEach
    void start() throws Exception {
        for (int i = 0; i < servers.length; i++) {
            servers[i] = new FakeServer();
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (FakeServer s : servers) {
            s.close();
        }
    }

    private Connection connect(String options) throws Exception {
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + servers[0].port() + ",127.0.0.1:"
                + servers[1].port() + ",127.0.0.1:" + servers[2].port() + "/vdb?user=alice&password=secret" + options);
    }

    private static long read(Connection c) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT n FROM t")) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    @Test
    void aReadLostOnTheControllerItFailedOverToGoesOnWithTheNext() throws Exception {
        servers[2].with(new Answering(7));
        try (Connection c = connect("")) {
            servers[0].with(new Dropping());
            servers[1].with(new Dropping());
            assertEquals(7, read(c), "answered by the third controller");
        }
        assertEquals(1, servers[1].count(MessageType.EXECUTE), "tried on the second, which failed too");
    }

    @Test
    void aControllerThatFailsWhileTheSessionIsPutBackIsPassedOver() throws Exception {
        servers[2].with(new Answering(7));
        servers[1].with(new FakeServer.Behaviour() {
            @Override
            MessageWriter ok() {
                return null; // drops the connection when told the session's settings
            }
        });
        try (Connection c = connect("&readOnly=true")) {
            servers[0].with(new Dropping());
            assertEquals(7, read(c), "answered by the third controller");
        }
        assertEquals(0, servers[1].count(MessageType.EXECUTE), "the second never got the read");
    }
}
