package org.phalanx.controller;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.config.ConfigException;
import org.phalanx.controller.config.ControllerConfig;
import org.phalanx.controller.config.ControllerConfigReader;
import org.phalanx.controller.net.SqliteSession;
import org.phalanx.controller.vdb.SessionSource;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.controller.vdb.VirtualUsers;
import org.phalanx.protocol.FrameIO;
import org.phalanx.protocol.Hello;
import org.phalanx.protocol.HelloOk;
import org.phalanx.protocol.MessageReader;
import org.phalanx.protocol.MessageType;
import org.phalanx.protocol.Protocol;
import org.phalanx.requestmanager.api.Session;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embeddable controller's lifecycle, with virtual databases whose sessions run on SQLite directly. */
class ControllerTest {
    @TempDir
    Path dir;
    private final List<String> shutDown = new CopyOnWriteArrayList<>();

    private ControllerConfig config(int port) throws IOException, ConfigException {
        Files.writeString(dir.resolve("controller.xml"), """
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="%d"/>
                  <virtualDatabase file="one.xml"/>
                  <virtualDatabase file="two.xml"/>
                </controller>
                """.formatted(port));
        for (String name : List.of("one", "two")) {
            Files.writeString(dir.resolve(name + ".xml"), """
                    <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="%s">
                      <users><user name="u" password="p"/></users>
                      <backends><backend name="db" url="jdbc:sqlite:%s.db"/></backends>
                    </virtualDatabase>
                    """.formatted(name, name));
        }
        return ControllerConfigReader.read(dir.resolve("controller.xml"));
    }

    private VirtualDatabaseStarter sqliteStarter() {
        return config -> new VirtualDatabase(config.name(), new VirtualUsers(config.users()), new SessionSource() {
            @Override
            public Session openSession(String virtualUser) throws SQLException {
                return new SqliteSession(dir.resolve(config.name() + ".db"), virtualUser);
            }

            @Override
            public void shutdown(Duration wait) {
                shutDown.add(config.name());
            }
        });
    }

    @Test
    void servesEveryVirtualDatabaseOnTheEphemeralPortAndStopsCleanly() throws Exception {
        Controller controller = new Controller(config(0), sqliteStarter());
        controller.start();
        int port = controller.port();
        assertTrue(port > 0);
        try (Socket one = new Socket("127.0.0.1", port); Socket two = new Socket("127.0.0.1", port)) {
            assertEquals(MessageType.HELLO_OK, hello(one, "one").type());
            assertEquals(MessageType.HELLO_OK, hello(two, "two").type());

            controller.stop();

            assertEquals(-1, one.getInputStream().read(), "client connections are closed");
        }
        assertEquals(List.of("one", "two"), shutDown);
        assertThrows(IOException.class, () -> new Socket("127.0.0.1", port).close());
        controller.stop(); // a second stop does nothing
        assertEquals(2, shutDown.size());
        assertThrows(IllegalStateException.class, controller::start);
    }

    @Test
    void aVirtualDatabaseThatCannotStartStopsTheOnesStartedBefore() throws Exception {
        VirtualDatabaseStarter sqlite = sqliteStarter();
        Controller controller = new Controller(config(0), config -> {
            if (config.name().equals("two")) {
                throw new SQLException("no backend answers", "08001");
            }
            return sqlite.start(config);
        });
        SQLException e = assertThrows(SQLException.class, controller::start);
        assertEquals("08001", e.getSQLState());
        assertEquals(List.of("one"), shutDown);
        controller.stop();
    }

    @Test
    void aTakenPortIsReportedAndTheVirtualDatabasesAreShutDown() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            Controller controller = new Controller(config(taken.getLocalPort()), sqliteStarter());
            IOException e = assertThrows(IOException.class, controller::start);
            assertTrue(e.getMessage().startsWith("cannot listen on 127.0.0.1:" + taken.getLocalPort()), e.getMessage());
            assertEquals(List.of("one", "two"), shutDown);
        }
    }

    @Test
    void fromConfigReadsTheFilesAndStartsNothing() throws Exception {
        config(0);
        Controller controller = Controller.fromConfig(dir.resolve("controller.xml"));
        assertEquals(2, controller.config().virtualDatabases().size());
        assertThrows(IllegalStateException.class, controller::port);
        controller.stop();
    }

    private static MessageReader hello(Socket socket, String vdb) throws IOException {
        FrameIO.write(socket.getOutputStream(), new Hello(Protocol.VERSION, vdb, "u", "p", Map.of()).toMessage());
        MessageReader reply = new MessageReader(FrameIO.read(new DataInputStream(socket.getInputStream()), 1 << 20));
        if (reply.type() == MessageType.HELLO_OK) {
            HelloOk.readBody(reply);
        }
        return reply;
    }
}
