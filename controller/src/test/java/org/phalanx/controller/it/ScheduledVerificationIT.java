package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.Controller;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.verify.VerificationReport;

/**
 * {@code <verification every=...>} runs by itself: a replica changed behind the controller's back
 * is found by the schedule, without anyone asking, and (onDifference="disable") taken out of service.
 */
class ScheduledVerificationIT {
    @TempDir
    Path dir;

    @Test
    void theScheduleFindsAndDisablesTheOutvotedReplica() throws Exception {
        StringBuilder backends = new StringBuilder();
        for (String name : List.of("b1", "b2", "b3")) {
            backends.append("    <backend name=\"").append(name).append("\" url=\"jdbc:sqlite:")
                    .append(dir.resolve(name + ".db")).append("\"/>\n");
        }
        Files.writeString(dir.resolve("vdb.xml"), """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends>
                %s  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="all"/>
                  <recoveryLog dir="log"/>
                  <verification every="1s" onDifference="disable"/>
                </virtualDatabase>
                """.formatted(backends));
        Files.writeString(dir.resolve("controller.xml"), """
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="0"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """);
        Controller controller = Controller.fromConfig(dir.resolve("controller.xml"));
        controller.start();
        try {
            try (Connection c = DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + controller.port() + "/vdb",
                    "app", "secret"); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(20))");
                for (int i = 1; i <= 50; i++) {
                    s.executeUpdate("INSERT INTO items VALUES (" + i + ", 'item " + i + "')");
                }
            }
            VirtualDatabase vdb = controller.virtualDatabase("vdb");
            try (Connection direct = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("b2.db"));
                 Statement s = direct.createStatement()) {
                s.execute("PRAGMA busy_timeout = 10000");
                s.executeUpdate("UPDATE items SET name = 'tampered' WHERE id = 7");
            }

            long deadline = System.nanoTime() + 30_000_000_000L;
            // the report is recorded once its actions are done, just after b2 is disabled (an earlier run's may
            // be there before: it found nothing)
            while ((vdb.backendStates().get("b2") != BackendState.DISABLED
                    || vdb.lastVerification().map(r -> r.minority().isEmpty()).orElse(true))
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(BackendState.DISABLED, vdb.backendStates().get("b2"), "the schedule found and disabled b2");
            VerificationReport last = vdb.lastVerification().orElseThrow();
            assertEquals(List.of("b2"), last.minority());
            assertTrue(last.differences() >= 1, last.toString());
            assertEquals(BackendState.ENABLED, vdb.backendStates().get("b1"));
            assertEquals(BackendState.ENABLED, vdb.backendStates().get("b3"));
        } finally {
            controller.stop();
        }
    }
}
