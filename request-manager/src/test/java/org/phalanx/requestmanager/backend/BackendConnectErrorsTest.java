package org.phalanx.requestmanager.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.config.BackendConfig;

/** A backend that cannot be reached says why in terms an operator acts on. */
class BackendConnectErrorsTest {
    @TempDir
    Path dir;

    @Test
    void aSqliteFileInAMissingFolderIsNamed() {
        Path missing = dir.resolve("no-such-folder");
        Backend b = new Backend(BackendConfig.builder("db1", "jdbc:sqlite:" + missing.resolve("x.db")).poolSize(1).build(),
                Duration.ofMillis(300), x -> { });
        try {
            SQLException e = assertThrows(SQLException.class, () -> b.connectionFor("app").close());
            assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
            assertEquals("58030", e.getSQLState());
        } finally {
            b.close(Duration.ofSeconds(1));
        }
    }
}
