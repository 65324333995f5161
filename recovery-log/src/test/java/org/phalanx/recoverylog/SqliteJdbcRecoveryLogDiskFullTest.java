package org.phalanx.recoverylog;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.disk.SqlitePageLimit;

/** The JDBC log in a SQLite file that fills up: SQLite's own SQLITE_FULL ("database or disk is full"). */
class SqliteJdbcRecoveryLogDiskFullTest extends DiskFullContract {
    @TempDir
    Path dir;
    private SqlitePageLimit database;

    @Override
    RecoveryLog open() {
        if (database == null) {
            database = new SqlitePageLimit("jdbc:sqlite:" + dir.resolve("log.db"));
        }
        return new JdbcRecoveryLog(database, "rlog_");
    }

    @Override
    void fill() {
        database.fill();
    }

    @Override
    void free() {
        if (database != null) {
            database.free();
        }
    }
}
