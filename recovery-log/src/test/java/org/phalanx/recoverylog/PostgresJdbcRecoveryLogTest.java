package org.phalanx.recoverylog;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.phalanx.testkit.db.TestDatabases;

class PostgresJdbcRecoveryLogTest extends RecoveryLogContract {
    private static final String DB = "phalanx_rlog_log_test";
    private String url;

    @BeforeEach
    void createDatabase() {
        url = TestDatabases.createPostgres(DB);
    }

    @AfterAll
    static void dropDatabase() {
        TestDatabases.dropPostgres(DB);
    }

    @Override
    RecoveryLog open() {
        return new JdbcRecoveryLog(url, "postgres", "", "rlog_");
    }
}
