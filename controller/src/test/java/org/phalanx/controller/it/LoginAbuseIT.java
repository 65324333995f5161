package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * Password guessing against a controller process: 1,000 wrong passwords get 28000 each, but only a
 * handful are checked at all (each failure makes the address and the user wait, doubling), and the
 * controller logs a bounded number of lines; a line break in a user name cannot forge a log line.
 */
class LoginAbuseIT {
    @TempDir
    Path dir;

    @Test
    void guessingIsSlowedQuietedAndCannotForgeLogLines() throws Exception {
        int port = Ports.free();
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends><backend name="b1" url="jdbc:sqlite:%s"/></backends>
                </virtualDatabase>
                """.formatted(dir.resolve("b1.db").toAbsolutePath()));
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port));
        Path out = dir.resolve("controller.out");
        try (ControllerProcess controller = ControllerProcess.launch(dir.resolve("controller.xml"), out, port)) {
            String url = "jdbc:phalanx://127.0.0.1:" + port + "/vdb";
            String forged = "00:00:00.000 INFO  [main] Controller - Phalanx controller stopped";
            SQLException evil = assertThrows(SQLException.class, () -> login(url, "evil\n" + forged, "x"));
            assertEquals("28000", evil.getSQLState());
            SQLException absurd = assertThrows(SQLException.class, () -> login(url, "u".repeat(100_000), "x"));
            assertEquals("28000", absurd.getSQLState());
            assertTrue(absurd.getMessage().contains("more than the 65536 a controller reads"), absurd.getMessage());

            int checked = 0;
            int throttled = 0;
            for (int i = 0; i < 1000; i++) {
                SQLException e = assertThrows(SQLException.class, () -> login(url, "app", "wrong"));
                assertEquals("28000", e.getSQLState(), e.getMessage());
                if (e.getMessage().contains("too many failed logins")) {
                    throttled++;
                } else {
                    checked++;
                }
            }
            assertEquals(1000, checked + throttled);
            assertTrue(checked <= 20, checked + " of 1,000 guesses were checked");

            controller.close(); // its output complete
            String log = Files.readString(out);
            long failures = log.lines().filter(l -> l.contains("Authentication failed")).count();
            assertTrue(failures >= 2 && failures <= 20, failures + " log lines for 1,001 failed logins");
            assertFalse(log.lines().anyMatch(l -> l.startsWith(forged)), "a user name forged a log line:\n" + log);
            assertTrue(log.contains("evil\\n" + forged), "the user name is in the log, its line break escaped");
        }
    }

    private static void login(String url, String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        DriverManager.getConnection(url, p).close();
    }
}
