package org.phalanx.recoverylog;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.phalanx.testkit.db.TestDatabases;

class MariaDbJdbcRecoveryLogTest extends RecoveryLogContract {
    private static final String DB = "phalanx_rlog_log_test";
    private String url;

    @BeforeEach
    void createDatabase() {
        url = TestDatabases.createMariaDb(DB, TestDatabases.MARIADB_BINARY_COLLATION);
    }

    @AfterAll
    static void dropDatabase() {
        TestDatabases.dropMariaDb(DB);
    }

    @Override
    RecoveryLog open() {
        return new JdbcRecoveryLog(url, "root", "", "rlog_");
    }
}
