package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.testing.Sessions.update;
import static org.phalanx.testing.Sessions.value;

import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.testing.ServerReplicas;
import org.phalanx.testing.ServerDatabase;

/**
 * A text of several statements on two PostgreSQL backends (pgjdbc runs them all, as PostgreSQL
 * does): a write after a read reaches every replica; transaction control among them is refused
 * before anything runs, rather than lost or run behind the controller's back.
 */
class SeveralStatementsTest {
    private ServerReplicas replicas;

    @AfterEach
    void stop() {
        if (replicas != null) {
            replicas.close();
        }
    }

    @Test
    void aWriteAfterAReadReachesEveryReplicaAndTransactionControlIsRefused() throws Exception {
        replicas = new ServerReplicas("postgresql", "phalanx_several");
        try (Session s = replicas.requestManager().openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            for (int i = 0; i < 4; i++) { // reads balance over both backends: a read would miss one of them
                s.execute(Request.of("SELECT 1; INSERT INTO t VALUES (" + (i + 1) + ")")).close();
            }
            SQLException refused = assertThrows(SQLException.class,
                    () -> s.execute(Request.of("BEGIN; INSERT INTO t VALUES (9); COMMIT")).close());
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());
            assertEquals(4L, ((Number) value(s, "SELECT count(*) FROM t; SELECT 2")).longValue(),
                    "a text of reads is a read: its first result");
        }
        for (ServerDatabase db : replicas.databases()) {
            assertEquals("1 2 3 4", ServerReplicas.ids(db, "t"), db.url());
        }
    }
}
