package org.phalanx.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.db.TestDatabases;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Launcher;
import org.phalanx.testkit.process.Ports;

/**
 * samples/heterogeneous as a user runs it: its controller started with bin/phalanx (on a free port,
 * over databases of the test's own), then its portable.sql through the Phalanx driver; the three
 * engines end up holding the same customers with the same keys.
 */
class HeterogeneousSampleIT {
    private static final String DB = "phalanx_sample_it";

    @TempDir
    Path dir;

    @Test
    void portableSqlRunsOnTheThreeEngines() throws Exception {
        String pgUrl = TestDatabases.createPostgres(DB);
        String mariaUrl = TestDatabases.createMariaDb(DB);
        ControllerProcess controller = null;
        try {
            Path sample = Launcher.ROOT.resolve("samples/heterogeneous");
            int port = Ports.free();
            Files.writeString(dir.resolve("controller.xml"), Files.readString(sample.resolve("controller.xml"))
                    .replace("port=\"25324\"", "port=\"" + port + "\""));
            Files.writeString(dir.resolve("mixed.xml"), Files.readString(sample.resolve("mixed.xml"))
                    .replace("phalanx_sample", TestDatabases.name(DB)));
            Path log = dir.resolve("controller.out");
            controller = ControllerProcess.launcher(dir.resolve("controller.xml")).output(log).awaitPorts(port).start();

            List<String> results = new ArrayList<>();
            try (Connection c = DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + port + "/mixed?user=app&password=app");
                 Statement s = c.createStatement()) {
                for (String sql : statements(sample.resolve("portable.sql"))) {
                    if (s.execute(sql)) {
                        try (ResultSet rs = s.getResultSet()) {
                            while (rs.next()) {
                                StringBuilder row = new StringBuilder();
                                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                                    Object v = rs.getObject(i);
                                    row.append(rs.getMetaData().getColumnLabel(i)).append('=')
                                            .append(v.getClass().getSimpleName()).append(':').append(v).append(' ');
                                }
                                results.add(row.toString().strip());
                            }
                        }
                    }
                }
                try (ResultSet rs = s.executeQuery("SELECT RANDOM() AS r FROM customers")) {
                    assertTrue(rs.next(), "the rewriting rule lets MariaDB answer RANDOM() too");
                }
            }
            assertEquals(List.of(
                    "id=Long:1 email=String:ada@example.org vip=Boolean:true balance=BigDecimal:120.50",
                    "id=Long:2 email=String:bob@example.org vip=Boolean:false balance=BigDecimal:7.00",
                    "n=Long:2 total=BigDecimal:127.50"), results);

            controller.process().destroy();
            assertTrue(controller.process().waitFor(1, TimeUnit.MINUTES), "controller stopped");
            for (String url : List.of("jdbc:sqlite:" + dir.resolve("mixed.db"), pgUrl, mariaUrl)) {
                String user = url.contains("postgresql") ? "postgres" : url.contains("mariadb") ? "root" : null;
                try (Connection c = DriverManager.getConnection(url, user, user == null ? null : "");
                     Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT id, email, balance FROM customers ORDER BY id")) {
                    assertTrue(rs.next());
                    assertEquals(1, rs.getLong(1), url);
                    assertEquals(0, new BigDecimal("120.5").compareTo(rs.getBigDecimal(3)), url);
                    assertTrue(rs.next());
                    assertEquals(2, rs.getLong(1), url);
                    assertEquals("bob@example.org", rs.getString(2), url);
                }
            }
        } finally {
            if (controller != null) {
                controller.process().destroyForcibly();
            }
            TestDatabases.dropPostgres(DB);
            TestDatabases.dropMariaDb(DB);
        }
    }

    /** The file's statements: comments dropped, split at semicolons ending a line. */
    private static List<String> statements(Path file) throws Exception {
        StringBuilder text = new StringBuilder();
        for (String line : Files.readAllLines(file)) {
            if (!line.strip().startsWith("--")) {
                text.append(line).append('\n');
            }
        }
        List<String> out = new ArrayList<>();
        for (String s : text.toString().split(";\\s*\\n")) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }
}
