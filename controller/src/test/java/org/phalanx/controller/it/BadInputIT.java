package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Done-when 7 through the real driver: bad SQL, bad password, garbage on the port. */
class BadInputIT {
    @TempDir
    Path dir;

    @Test
    void malformedSqlGetsTheBackendsMessageAndTheControllerKeepsServing() throws Exception {
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "first", "b1", "b2");
             Connection c = cluster.connect(); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELEKT * FRUM nothing"));
            assertTrue(e.getMessage().contains("syntax error"), e.getMessage());
            SQLException missing = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM no_such_table"));
            assertTrue(missing.getMessage().contains("no such table"), missing.getMessage());
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            s.executeUpdate("INSERT INTO t VALUES (1)");
            SQLException dup = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO t VALUES (1)"));
            assertTrue(dup.getMessage().contains("UNIQUE"), dup.getMessage());
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
                rs.next();
                assertEquals(1, rs.getInt(1));
            }
            assertEquals(java.util.Set.of(org.phalanx.requestmanager.api.BackendState.ENABLED),
                    new java.util.HashSet<>(cluster.controller.backendStates("vdb").values()));
        }
    }

    @Test
    void wrongCredentialsAreRefusedWith28000() throws Exception {
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "first", "b1")) {
            SQLException e = assertThrows(SQLException.class,
                    () -> DriverManager.getConnection(cluster.url() + "?user=app&password=wrong"));
            assertEquals("28000", e.getSQLState());
            SQLException unknown = assertThrows(SQLException.class,
                    () -> DriverManager.getConnection(cluster.url() + "?user=nobody&password=secret"));
            assertEquals("28000", unknown.getSQLState());
            try (Connection ok = cluster.connect()) {
                assertTrue(ok.isValid(2));
            }
        }
    }

    @Test
    void randomBytesCloseThatConnectionOnly() throws Exception {
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "first", "b1");
             Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            Random random = new Random(7);
            for (int attempt = 0; attempt < 5; attempt++) {
                try (Socket garbage = new Socket("127.0.0.1", cluster.controller.port())) {
                    garbage.setSoTimeout(15_000);
                    byte[] junk = new byte[4096];
                    random.nextBytes(junk);
                    OutputStream out = garbage.getOutputStream();
                    out.write(junk);
                    out.flush();
                    InputStream in = garbage.getInputStream();
                    // the controller closes the connection: reads end (-1) or reset, never hang
                    try {
                        while (in.read() >= 0) {
                            // drain whatever error reply came before the close
                        }
                    } catch (java.net.SocketException reset) {
                        // closed with unread junk pending: also a close
                    }
                }
                s.executeUpdate("INSERT INTO t VALUES (" + attempt + ")");
            }
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
                rs.next();
                assertEquals(5, rs.getInt(1));
            }
        }
    }
}
