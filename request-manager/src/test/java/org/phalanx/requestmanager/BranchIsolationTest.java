package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.phalanx.testing.Sessions.update;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.testing.ServerDatabase;

/**
 * A transaction's branch on PostgreSQL or MariaDB runs at READ COMMITTED (the controller's locks
 * give the stronger levels), while auto-commit work keeps the server's own level. The branch no
 * longer asks each pooled connection its level (pgjdbc: a round trip per transaction); it relies
 * on the level learned from the first one, which HikariCP puts back on every connection returned
 * changed: MariaDB's REPEATABLE READ must then still be switched for every branch, and be back
 * outside it. One pooled connection, so every statement here runs on the same one.
 */
class BranchIsolationTest {
    private static final String DB = "phalanx_branch_isolation";
    private RequestManager rm;
    private ServerDatabase db;

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
        if (db != null) {
            db.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void branchesRunAtReadCommittedAndAutoCommitWorkAtTheServersLevel(String target) throws Exception {
        db = ServerDatabase.create(target, DB);
        boolean pg = db.isPostgres();
        rm = new RequestManager("iso", RequestManagerConfig.builder().lockTimeout(Duration.ofSeconds(10)).build(),
                List.of(BackendConfig.builder("b", db.url()).credentials(db.login()).poolSize(1).build()));
        rm.start();
        String level = pg ? "SELECT current_setting('transaction_isolation') FROM t WHERE id = 1"
                : "SELECT @@session.tx_isolation FROM t WHERE id = 1";
        String serverDefault = pg ? "read committed" : "REPEATABLE-READ";
        String branch = pg ? "read committed" : "READ-COMMITTED";
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
            update(s, "INSERT INTO t VALUES (1, 0)");
            for (int round = 0; round < 3; round++) {
                assertEquals(serverDefault, text(s, level), "auto-commit, round " + round);
                s.setAutoCommit(false);
                update(s, "UPDATE t SET v = v + 1 WHERE id = 1"); // the branch begins
                assertEquals(branch, text(s, level), "in the transaction, round " + round);
                s.commit();
                s.setAutoCommit(true);
            }
        }
    }

    private static String text(Session s, String sql) throws SQLException {
        try (Result r = s.execute(Request.of(sql))) {
            ResultSet rs = ((Result.Rows) r).resultSet();
            rs.next();
            return rs.getString(1);
        }
    }
}
