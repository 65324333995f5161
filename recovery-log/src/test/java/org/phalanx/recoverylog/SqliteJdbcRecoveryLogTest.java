package org.phalanx.recoverylog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

class SqliteJdbcRecoveryLogTest extends RecoveryLogContract {
    @TempDir
    Path dir;

    @Override
    RecoveryLog open() {
        return new JdbcRecoveryLog("jdbc:sqlite:" + dir.resolve("log.db"), null, null, "rlog_");
    }

    @Test
    void aDataSourceWorksToo() {
        SQLiteDataSource ds = new SQLiteDataSource();
        ds.setUrl("jdbc:sqlite:" + dir.resolve("ds.db"));
        try (RecoveryLog log = new JdbcRecoveryLog(ds, "")) {
            log.append(entry(1));
            log.setCheckpoint("c", 1);
            assertEquals(List.of(entry(1)), readAll(log, 0));
        }
        try (RecoveryLog log = new JdbcRecoveryLog(ds, "")) {
            assertEquals(1, log.lastPosition());
            assertEquals(Map.of("c", 1L), log.checkpoints());
        }
    }
}
