package org.phalanx.controller.it;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** An integration test over an {@link EngineCluster} it starts, closed after each test (its databases dropped). */
abstract class WithEngineCluster {
    @TempDir
    Path dir;
    EngineCluster cluster;

    @AfterEach
    void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
