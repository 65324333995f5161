package org.phalanx.recoverylog;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteJdbcRecoveryLogTest extends RecoveryLogContract {
    @TempDir
    Path dir;

    @Override
    RecoveryLog open() {
        return new JdbcRecoveryLog("jdbc:sqlite:" + dir.resolve("log.db"), null, null, "rlog_");
    }
}
