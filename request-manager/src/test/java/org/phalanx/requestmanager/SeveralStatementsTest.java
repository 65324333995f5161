package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.testing.Sessions.update;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.testing.ServerDatabase;

/**
 * A text of several statements on two PostgreSQL backends (pgjdbc runs them all, as PostgreSQL
 * does): a write after a read reaches every replica; transaction control among them is refused
 * before anything runs, rather than lost or run behind the controller's back.
 */
class SeveralStatementsTest {
    private final List<ServerDatabase> dbs = new ArrayList<>();
    private RequestManager rm;

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
        dbs.forEach(ServerDatabase::close);
    }

    private static String values(ServerDatabase db) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.url(), db.login().user(), db.login().password());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT id FROM t ORDER BY id")) {
            StringBuilder ids = new StringBuilder();
            while (rs.next()) {
                ids.append(rs.getInt(1)).append(' ');
            }
            return ids.toString().strip();
        }
    }

    private static long first(Result r) throws SQLException {
        if (r instanceof Result.Cached cached) {
            return ((Number) cached.rows().get(0)[0]).longValue();
        }
        Result.Rows rows = (Result.Rows) r;
        if (!rows.prefix().isEmpty()) {
            return ((Number) rows.prefix().get(0)[0]).longValue();
        }
        rows.resultSet().next();
        return rows.resultSet().getLong(1);
    }

    @Test
    void aWriteAfterAReadReachesEveryReplicaAndTransactionControlIsRefused() throws Exception {
        List<BackendConfig> backends = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            ServerDatabase db = ServerDatabase.create("postgresql", "phalanx_several_" + name);
            dbs.add(db);
            backends.add(BackendConfig.builder(name, db.url()).credentials(db.login()).poolSize(2).build());
        }
        rm = new RequestManager("several", RequestManagerConfig.builder().lockTimeout(Duration.ofSeconds(10)).build(),
                backends);
        rm.start();
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            for (int i = 0; i < 4; i++) { // reads balance over both backends: a read would miss one of them
                s.execute(Request.of("SELECT 1; INSERT INTO t VALUES (" + (i + 1) + ")")).close();
            }
            SQLException refused = assertThrows(SQLException.class,
                    () -> s.execute(Request.of("BEGIN; INSERT INTO t VALUES (9); COMMIT")).close());
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());
            try (Result r = s.execute(Request.of("SELECT count(*) FROM t; SELECT 2"))) {
                assertEquals(4L, first(r), "a text of reads is a read: its first result");
            }
        }
        for (ServerDatabase db : dbs) {
            assertEquals("1 2 3 4", values(db), db.url());
        }
    }
}
