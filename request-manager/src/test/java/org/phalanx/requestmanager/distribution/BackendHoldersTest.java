package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.recovery.BackendHolding;

/** Who holds each backend a member declares, before and after take-overs. */
class BackendHoldersTest {
    @TempDir
    Path dir;

    private static final List<BackendConfig> DECLARED = List.of(
            BackendConfig.builder("c2-db1", "jdbc:sqlite:a.db").build(),
            BackendConfig.builder("c1-db1", "jdbc:sqlite:b.db").build(),
            BackendConfig.builder("c1-db2", "jdbc:sqlite:c.db").build());

    private static List<String> names(List<BackendConfig> backends) {
        return backends.stream().map(BackendConfig::name).toList();
    }

    @Test
    void aMemberUsesItsOwnBackendsAndThoseItTookOverNeverAnotherMembers() throws Exception {
        BackendHolders c2 = new BackendHolders("bank", "c2", DECLARED, Map.of("c1-db1", "c1", "c1-db2", "c1"));
        assertEquals(List.of("c2-db1"), names(c2.usable()), "c1's backends stay c1's until taken over");
        assertEquals(List.of("c1-db1", "c1-db2"), c2.standbyOf("c1"));
        assertFalse(c2.takeChange());

        c2.apply(new GroupEntry.Takeover(3, "c1", "c2", List.of("c1-db1", "c1-db2")));
        assertTrue(c2.takeChange(), "a take-over is news for the watcher, once");
        assertFalse(c2.takeChange());
        assertEquals(List.of("c2-db1", "c1-db1", "c1-db2"), names(c2.usable()));
        assertEquals(List.of(), c2.standbyOf("c1"), "nothing of c1's left to take over");

        // c1 declares the same backends as its own: once c2 took them over, it leaves them alone
        BackendHolders c1 = new BackendHolders("bank", "c1", List.of(DECLARED.get(1), DECLARED.get(2)), Map.of());
        c1.takenOver(c2.takenOver()); // as a snapshot carries it
        assertTrue(c1.takeChange());
        assertEquals(List.of(), c1.usable());
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            c1.markHeldElsewhere(log);
            assertTrue(BackendHolding.isHeldElsewhere(log, "c1-db1"));
            assertEquals("elsewhere@c2", log.states().get("backend.c1-db2"));
        }
    }
}
