package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.testing.Sessions.update;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.testing.ServerReplicas;
import org.phalanx.testing.ServerDatabase;

/**
 * Writes calling now(), CURRENT_DATE and the like on two PostgreSQL backends: the value chosen once
 * for both is a typed literal, so it mixes with intervals and functions as PostgreSQL's own does
 * (an untyped one failed: "invalid input syntax for type interval"), it is the same instant
 * whatever the session's time zone, and both replicas store the same.
 */
class PostgresMacrosTest {
    private ServerReplicas replicas;

    @AfterEach
    void stop() {
        if (replicas != null) {
            replicas.close();
        }
    }

    private static String rows(ServerDatabase db) throws SQLException {
        try (Connection c = ServerReplicas.direct(db); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, created, d, kind, abs(extract(epoch from created - now())) < 600"
                     + " FROM t ORDER BY id")) {
            StringBuilder out = new StringBuilder();
            while (rs.next()) {
                out.append(rs.getInt(1)).append(' ').append(rs.getString(2)).append(' ').append(rs.getString(3))
                        .append(' ').append(rs.getString(4)).append(' ').append(rs.getBoolean(5)).append('\n');
            }
            return out.toString();
        }
    }

    @Test
    void macrosMixWithIntervalsAndFunctionsAndStayTheSameInstant() throws Exception {
        replicas = new ServerReplicas("postgresql", "phalanx_pg_macros");
        try (Session s = replicas.requestManager().openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, created TIMESTAMPTZ, d DATE, kind TEXT)");
            update(s, "SET TIME ZONE 'Pacific/Kiritimati'"); // +14: an offset-less literal would be 14 hours off
            update(s, "INSERT INTO t VALUES (1, now(), CURRENT_DATE, pg_typeof(now())::text)");
            update(s, "INSERT INTO t VALUES (2, date_trunc('hour', now()) - interval '40 days', CURRENT_DATE - 40,"
                    + " pg_typeof(random())::text)");
            update(s, "INSERT INTO t VALUES (3, CURRENT_TIMESTAMP + '1 hour', CURRENT_DATE, to_char(now(), 'YYYY'))");
            assertEquals(1L, update(s, "DELETE FROM t WHERE created < now() - interval '30 days'"));
            assertEquals(1L, update(s, "DELETE FROM t WHERE d < CURRENT_DATE - 30 OR id = 3"));
            // 'now' is each replica's own clock where it becomes a timestamp: refused, not left to diverge
            SQLException clock = assertThrows(SQLException.class,
                    () -> update(s, "INSERT INTO t (id, created) VALUES (4, 'now')"));
            assertEquals("0A000", clock.getSQLState(), clock.getMessage());
            // xmin is each replica's own transaction counter: optimistic locking on it disabled a replica
            SQLException systemColumn = assertThrows(SQLException.class,
                    () -> update(s, "UPDATE t SET kind = 'x' WHERE id = 1 AND xmin = '4376'"));
            assertEquals("0A000", systemColumn.getSQLState(), systemColumn.getMessage());
            // which rows a LIMIT without ORDER BY picks is each replica's physical order
            SQLException limit = assertThrows(SQLException.class,
                    () -> update(s, "UPDATE t SET d = d WHERE id IN (SELECT id FROM t LIMIT 1)"));
            assertEquals("0A000", limit.getSQLState(), limit.getMessage());
            update(s, "UPDATE t SET d = d WHERE id IN (SELECT id FROM t ORDER BY id LIMIT 1)");
            // numbers handed out in each replica's scan order
            update(s, "CREATE SEQUENCE sq");
            for (String numbering : new String[] {"UPDATE t SET kind = nextval('sq')::text",
                    "INSERT INTO t (id, kind) SELECT nextval('sq') + 100, kind FROM t"}) {
                SQLException refused = assertThrows(SQLException.class, () -> update(s, numbering));
                assertEquals("0A000", refused.getSQLState(), numbering);
            }
            update(s, "UPDATE t SET kind = nextval('sq')::text WHERE id = 99"); // one row at most: left alone
        }
        String a = rows(replicas.databases().get(0));
        assertEquals("timestamp with time zone true", a.substring(a.indexOf("timestamp")).strip(), a);
        assertEquals(a, rows(replicas.databases().get(1)), "both replicas");
    }
}
