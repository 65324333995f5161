package org.phalanx.controller.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.config.ListenConfig;
import org.phalanx.controller.config.VirtualUser;
import org.phalanx.controller.vdb.SessionSource;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.controller.vdb.VirtualUsers;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A front end on an ephemeral port hosting virtual database "demo" (user demo/secret), whose
 * sessions run directly on a SQLite file. SQL "BOOM" makes the session throw a RuntimeException.
 */
abstract class FrontEndTestBase {
    static final int MAX_FRAME = 64 * 1024;
    static final Duration HELLO_TIMEOUT = Duration.ofMillis(500);
    static final Duration PARK_AFTER = Duration.ofMillis(200);

    @TempDir
    Path dir;
    FrontEnd frontEnd;
    final List<SqliteSession> sessions = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startFrontEnd() throws IOException {
        SessionSource source = new SessionSource() {
            @Override
            public Session openSession(String virtualUser) throws SQLException {
                SqliteSession session = newSession(virtualUser);
                sessions.add(session);
                return session;
            }

            @Override
            public void shutdown(Duration wait) {
            }
        };
        VirtualDatabase demo = new VirtualDatabase("demo",
                new VirtualUsers(List.of(new VirtualUser("demo", "secret"))), source);
        frontEnd = new FrontEnd(listenConfig(), Map.of("demo", demo), timeouts());
        frontEnd.start();
    }

    /** Short, so that tests see clients time out and idle connections wait without a thread. */
    FrontEnd.Timeouts timeouts() {
        return new FrontEnd.Timeouts(HELLO_TIMEOUT, HELLO_TIMEOUT, PARK_AFTER);
    }

    /** Where and how the front end listens (a test of limits lowers them). */
    ListenConfig listenConfig() {
        return new ListenConfig("127.0.0.1", 0, MAX_FRAME);
    }

    @AfterEach
    void stopFrontEnd() {
        frontEnd.stop(Duration.ofSeconds(2));
    }

    SqliteSession newSession(String user) throws SQLException {
        return new SqliteSession(dir.resolve("demo.db"), user) {
            @Override
            public Result execute(Request r) throws SQLException {
                if (r.sql().equals("BOOM")) {
                    throw new IllegalStateException("boom");
                }
                return super.execute(r);
            }
        };
    }

    TestClient client() throws IOException {
        return new TestClient(frontEnd.port());
    }

    TestClient loggedIn() throws IOException {
        TestClient c = client();
        c.login("demo", "demo", "secret");
        return c;
    }

    static MessageWriter execute(String sql, Object... params) {
        return new Execute(Execute.ANY, sql, List.of(params), Execute.NO_KEYS, List.of(), 0, 0, 0, false).toMessage();
    }

    static MessageWriter query(String sql, int fetchSize, int maxRows, boolean scrollable) {
        return new Execute(Execute.QUERY, sql, List.of(), Execute.NO_KEYS, List.of(), maxRows, fetchSize, 0,
                scrollable).toMessage();
    }
}
