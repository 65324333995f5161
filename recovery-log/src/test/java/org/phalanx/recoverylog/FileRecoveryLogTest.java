package org.phalanx.recoverylog;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileRecoveryLogTest extends RecoveryLogContract {
    @TempDir
    Path dir;

    @Override
    RecoveryLog open() {
        return new FileRecoveryLog(dir.resolve("log"), 4096); // small segments: rolling and purging get exercised
    }
}
