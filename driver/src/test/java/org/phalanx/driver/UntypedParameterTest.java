package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.HelloOk;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.Protocol;
import org.phalanx.protocol.UpdateCount;
import org.phalanx.protocol.Untyped;

/**
 * A UUID and {@code setObject(text, Types.OTHER)} travel as untyped text (PostgreSQL infers their
 * type where they are used); to a controller of protocol version 4, which does not know that tag,
 * as plain strings; a UUID given a type of its own is converted to it.
 */
class UntypedParameterTest {
    private static final UUID ID = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");

    private static List<Object> sent(short controllerVersion) throws Exception {
        try (FakeServer server = new FakeServer()) {
            server.with(new FakeServer.Behaviour() {
                @Override
                MessageWriter hello(Hello h) {
                    return new HelloOk(controllerVersion, "PostgreSQL", "15", 1, Connection.TRANSACTION_READ_COMMITTED)
                            .toMessage();
                }

                @Override
                MessageWriter execute(Execute e, FakeServer.Session s) {
                    return new UpdateCount(1, null).toMessage();
                }
            });
            try (Connection c = DriverManager.getConnection(server.url());
                 PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                ps.setObject(1, ID);
                ps.setObject(2, "{\"a\": 1}", Types.OTHER);
                ps.setObject(3, ID, Types.VARCHAR);
                ps.executeUpdate();
            }
            return server.received.stream().filter(o -> o instanceof Execute).map(o -> ((Execute) o).params())
                    .findFirst().orElseThrow();
        }
    }

    @Test
    void uuidsAndOtherTextsTravelUntyped() throws Exception {
        assertEquals(List.of(new Untyped(ID.toString()), new Untyped("{\"a\": 1}"), ID.toString()), sent(Protocol.VERSION));
    }

    @Test
    void toAnOlderControllerTheyTravelAsStrings() throws Exception {
        assertEquals(List.of(ID.toString(), "{\"a\": 1}", ID.toString()), sent((short) 4));
    }
}
