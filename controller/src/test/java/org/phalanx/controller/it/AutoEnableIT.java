package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.phalanx.controller.it.EngineCluster.Kind;
import org.phalanx.requestmanager.api.BackendState;

/**
 * {@code <recoveryLog autoEnable="...">}: a backend that lost its connection comes back by itself
 * once it connects again, caught up by replay while clients write; one an operator disabled stays out.
 */
class AutoEnableIT extends WithEngineCluster {
    @Test
    void aBackendThatConnectsAgainIsEnabledAgainButNotOneAnOperatorDisabled() throws Exception {
        cluster = new EngineCluster(dir, Kind.SQLITE, 2, "phalanx_auto_enable", "", "",
                "<recoveryLog dir=\"log\" autoEnable=\"300ms\"/>");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
            int id = 0;
            cluster.slow().broken = true; // b2's connections fail, new ones too: a server gone
            for (; id < 20; id++) {
                s.executeUpdate("INSERT INTO t VALUES (" + id + ", " + id + ")");
            }
            // (under wait policy first the clients are answered by b1: b2's failure may come just after)
            long out = System.nanoTime() + 10_000_000_000L;
            while (cluster.vdb().backendStates().get("b2") != BackendState.DISABLED && System.nanoTime() < out) {
                Thread.sleep(10);
            }
            assertEquals(BackendState.DISABLED, cluster.vdb().backendStates().get("b2"));

            cluster.slow().broken = false; // back: the next period finds it connects and replays what it lacks
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (cluster.vdb().backendStates().get("b2") != BackendState.ENABLED && System.nanoTime() < deadline) {
                s.executeUpdate("INSERT INTO t VALUES (" + id + ", " + id++ + ")"); // clients go on meanwhile
                Thread.sleep(50);
            }
            cluster.assertAllEnabled();

            disableWhenTheAutomaticEnableHasEnded("b2");
            for (int i = 0; i < 10; i++) { // several periods
                s.executeUpdate("INSERT INTO t VALUES (" + id + ", " + id++ + ")");
                Thread.sleep(150);
            }
            assertEquals(BackendState.DISABLED, cluster.vdb().backendStates().get("b2"), "an operator's disable holds");
            cluster.vdb().enableBackend("b2");
        }
        cluster.stopController();
        cluster.assertIdentical("t", "id");
    }

    /**
     * The automatic enable holds the operator-action slot a moment after the backend shows enabled;
     * an operator's action meanwhile is refused (55006, naming it), as operations.md says.
     */
    private void disableWhenTheAutomaticEnableHasEnded(String backend) throws Exception {
        long end = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try {
                cluster.vdb().disableBackend(backend);
                return;
            } catch (SQLException e) {
                if (!"55006".equals(e.getSQLState()) || !e.getMessage().contains("automatically")
                        || System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }
}
