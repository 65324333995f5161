package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.Protocol;

/** A controller of an older release refuses this driver's version: the driver logs in again in that one, if it speaks it. */
class OlderControllerTest {

    /** Speaks only {@code version}, refusing others as every controller since version 3 does. */
    private static final class Speaking extends FakeServer.Behaviour {
        private final short version;

        Speaking(int version) {
            this.version = (short) version;
        }

        @Override
        MessageWriter hello(Hello h) {
            if (h.version() != version) {
                return new ErrorReply("08004", 0, "protocol version " + h.version()
                        + " is not supported (this controller speaks version " + version + ")").toMessage();
            }
            return super.hello(h);
        }
    }

    @Test
    void aVersion3ControllerIsSpokenToInVersion3() throws Exception {
        try (FakeServer server = new FakeServer().with(new Speaking(3));
             Connection c = DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + server.port()
                     + "/vdb?user=alice&password=secret")) {
            List<Short> versions = server.received.stream().filter(o -> o instanceof Hello).map(o -> ((Hello) o).version())
                    .toList();
            assertEquals(List.of(Protocol.VERSION, (short) 3), versions, "refused in its own version, then in 3");
            c.isValid(1);
        }
    }

    @Test
    void aControllerSpeakingOnlyAVersionTooOldIsRefused() throws Exception {
        try (FakeServer server = new FakeServer().with(new Speaking(2))) {
            SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection("jdbc:phalanx://127.0.0.1:"
                    + server.port() + "/vdb?user=alice&password=secret"));
            assertEquals("08004", e.getSQLState(), e.getMessage());
            assertEquals(1, server.received.stream().filter(o -> o instanceof Hello).count(), "asked once");
        }
    }
}
