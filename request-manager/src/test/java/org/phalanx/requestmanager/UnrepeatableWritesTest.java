package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.testing.Sessions.update;

import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.testing.EngineReplicas;

/**
 * Writes each replica would carry out its own way, on every engine: routines reading the clock or
 * randomness (an {@code updated_at} trigger calling now() left each replica with its own value),
 * refused when created, while a routine computing nothing of its own runs everywhere alike;
 * {@code CREATE TABLE ... AS SELECT} with clock values chosen once; an unordered
 * {@code INSERT ... SELECT} into a table whose key the engine numbers.
 */
class UnrepeatableWritesTest {
    @TempDir
    Path dir;
    private EngineReplicas replicas;

    @AfterEach
    void stop() {
        if (replicas != null) {
            replicas.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql", "mariadb"})
    void aTriggerReadingTheClockIsRefusedAndAnOtherRuns(String engine) throws Exception {
        replicas = new EngineReplicas(engine, dir, "phalanx_triggers");
        try (Session s = replicas.requestManager().openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, at VARCHAR(40))");
            update(s, "CREATE TABLE audit (id INTEGER PRIMARY KEY)");
            String clock = switch (engine) {
                case "postgresql" -> "CREATE FUNCTION touch() RETURNS trigger AS $$ BEGIN NEW.at = now()::text;"
                        + " RETURN NEW; END; $$ LANGUAGE plpgsql";
                case "mariadb" -> "CREATE TRIGGER touch BEFORE UPDATE ON t FOR EACH ROW SET NEW.at = NOW(6)";
                default -> "CREATE TRIGGER touch AFTER UPDATE OF v ON t BEGIN"
                        + " UPDATE t SET at = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE id = NEW.id; END";
            };
            SQLFeatureNotSupportedException refused = assertThrows(SQLFeatureNotSupportedException.class,
                    () -> update(s, clock));
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());

            if (engine.equals("postgresql")) {
                update(s, "CREATE FUNCTION audited() RETURNS trigger AS $$ BEGIN INSERT INTO audit VALUES (NEW.id);"
                        + " RETURN NEW; END; $$ LANGUAGE plpgsql");
                update(s, "CREATE TRIGGER audit_t AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION audited()");
            } else if (engine.equals("mariadb")) {
                update(s, "CREATE TRIGGER audit_t AFTER INSERT ON t FOR EACH ROW INSERT INTO audit VALUES (NEW.id)");
            } else {
                update(s, "CREATE TRIGGER audit_t AFTER INSERT ON t BEGIN INSERT INTO audit VALUES (NEW.id); END");
            }
            update(s, "INSERT INTO t (id, v) VALUES (1, 1)");
            update(s, "UPDATE t SET v = 2 WHERE id = 1");
        }
        assertEquals(List.of("1", "1"), replicas.ids("audit"));
    }

    /** CREATE TABLE ... AS SELECT stores rows: its clock is chosen once, a random id refused, as in an INSERT. */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void createTableAsSelectStoresTheSameClockEverywhere(String engine) throws Exception {
        boolean pg = engine.equals("postgresql");
        try (org.phalanx.testing.ServerReplicas servers = new org.phalanx.testing.ServerReplicas(engine, "phalanx_ctas");
             Session s = servers.requestManager().openSession("u")) {
            update(s, "CREATE TABLE e1 (id INTEGER PRIMARY KEY)");
            update(s, "INSERT INTO e1 VALUES (1), (2)");
            update(s, pg ? "CREATE TABLE e4 AS SELECT id, clock_timestamp()::text AS u FROM e1"
                    : "CREATE TABLE e4 AS SELECT id, CAST(NOW(6) AS CHAR) AS u FROM e1");
            SQLFeatureNotSupportedException refused = assertThrows(SQLFeatureNotSupportedException.class,
                    () -> update(s, pg ? "CREATE TABLE e3 AS SELECT id, gen_random_uuid() AS u FROM e1"
                            : "CREATE TABLE e3 AS SELECT id, UUID() AS u FROM e1"));
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());
            List<String> clocks = perReplica(servers, "SELECT u FROM e4 ORDER BY id");
            assertEquals(clocks.get(0), clocks.get(1), "each replica's e4");
        }
    }

    /**
     * INSERT ... SELECT without ORDER BY into a table whose key the engine numbers: each replica
     * numbered the rows in its own scan order. The query is ordered by all its columns, so the rows
     * are numbered alike (source rows inserted 3, 1, 2 are numbered 1, 2, 3 by value, not by place),
     * also after common tables (WITH ... INSERT); where the order cannot be appended, refused.
     */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void anUnorderedInsertSelectIntoANumberedTableIsNumberedInOneOrder(String engine) throws Exception {
        boolean pg = engine.equals("postgresql");
        try (org.phalanx.testing.ServerReplicas servers = new org.phalanx.testing.ServerReplicas(engine, "phalanx_numbered");
             Session s = servers.requestManager().openSession("u")) {
            update(s, "CREATE TABLE src (id INTEGER PRIMARY KEY, v INTEGER)");
            update(s, "INSERT INTO src VALUES (3, 30)");
            update(s, "INSERT INTO src VALUES (1, 10)");
            update(s, "INSERT INTO src VALUES (2, 20)");
            update(s, "CREATE TABLE arch (id " + (pg ? "SERIAL" : "INTEGER AUTO_INCREMENT") + " PRIMARY KEY, src INTEGER, v INTEGER)");
            assertEquals(3, update(s, "INSERT INTO arch (v, src) SELECT v, id FROM src;"));
            assertEquals(1, update(s, "INSERT INTO arch (src) SELECT 4"), "one row: nothing to order");
            assertEquals(3, update(s, pg ? "WITH s AS (SELECT id, v FROM src) INSERT INTO arch (v, src) SELECT v, id + 10 FROM s"
                    : "INSERT INTO arch (v, src) WITH s AS (SELECT id, v FROM src) SELECT v, id + 10 FROM s"));
            // with RETURNING the order goes before it (it was refused), and the rows come back
            assertEquals(List.of("21", "22", "23"), firstColumn(s, "INSERT INTO arch (v, src) SELECT v, id + 20 FROM src"
                    + " RETURNING src"));
            SQLFeatureNotSupportedException refused = assertThrows(SQLFeatureNotSupportedException.class,
                    () -> update(s, pg ? "INSERT INTO arch (src) SELECT id FROM src ON CONFLICT DO NOTHING"
                            : "INSERT INTO arch (src) SELECT id FROM src ON DUPLICATE KEY UPDATE v = 0"));
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());
            assertEquals(List.of("1:1 2:2 3:3 4:4 5:11 6:12 7:13 8:21 9:22 10:23 ",
                            "1:1 2:2 3:3 4:4 5:11 6:12 7:13 8:21 9:22 10:23 "),
                    perReplica(servers, "SELECT " + (pg ? "id || ':' || src" : "CONCAT(id, ':', src)") + " FROM arch ORDER BY id"));
        }
    }

    /** The first column of every row a statement returns, as text. */
    private static List<String> firstColumn(Session s, String sql) throws SQLException {
        List<String> values = new java.util.ArrayList<>();
        try (Result r = s.execute(Request.of(sql))) {
            if (r instanceof Result.Cached cached) {
                cached.rows().forEach(row -> values.add(String.valueOf(row[0])));
            } else {
                Result.Rows rows = (Result.Rows) r;
                rows.prefix().forEach(row -> values.add(String.valueOf(row[0])));
                while (rows.resultSet().next()) {
                    values.add(rows.resultSet().getString(1));
                }
            }
        }
        return values;
    }

    /**
     * An aggregate or window function whose value follows the order rows are read in, without an
     * ORDER BY, in a write: each replica's physical order would decide what it stores. Refused, and
     * nothing is written; with the order given it runs, alike everywhere.
     */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aWriteAggregatingRowsInNoGivenOrderIsRefused(String engine) throws Exception {
        boolean pg = engine.equals("postgresql");
        try (org.phalanx.testing.ServerReplicas servers = new org.phalanx.testing.ServerReplicas(engine, "phalanx_unordered");
             Session s = servers.requestManager().openSession("u")) {
            update(s, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20))");
            update(s, "INSERT INTO item VALUES (2, 'b'), (1, 'c'), (3, 'a')");
            update(s, "CREATE TABLE summary (id INTEGER PRIMARY KEY, names VARCHAR(100))");
            String unordered = pg ? "INSERT INTO summary SELECT 1, string_agg(name, ',') FROM item"
                    : "INSERT INTO summary SELECT 1, GROUP_CONCAT(name) FROM item";
            SQLFeatureNotSupportedException refused = assertThrows(SQLFeatureNotSupportedException.class,
                    () -> update(s, unordered));
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());
            assertThrows(SQLFeatureNotSupportedException.class, () -> update(s,
                    "INSERT INTO summary SELECT row_number() OVER (), name FROM item"));
            update(s, pg ? "INSERT INTO summary SELECT 1, string_agg(name, ',' ORDER BY id) FROM item"
                    : "INSERT INTO summary SELECT 1, GROUP_CONCAT(name ORDER BY id) FROM item");
            update(s, "INSERT INTO summary SELECT 1 + row_number() OVER (ORDER BY name), name FROM item");
            assertEquals(List.of("c,b,a a b c ", "c,b,a a b c "), perReplica(servers, "SELECT names FROM summary ORDER BY id"));
        }
    }

    /** Each replica's answer to {@code query}: its rows' first columns, each followed by a space. */
    private static List<String> perReplica(org.phalanx.testing.ServerReplicas servers, String query) throws Exception {
        List<String> answers = new java.util.ArrayList<>();
        for (org.phalanx.testing.ServerDatabase db : servers.databases()) {
            try (java.sql.Connection c = org.phalanx.testing.ServerReplicas.direct(db);
                 java.sql.Statement st = c.createStatement();
                 java.sql.ResultSet rs = st.executeQuery(query)) {
                StringBuilder rows = new StringBuilder();
                while (rs.next()) {
                    rows.append(rs.getString(1)).append(' ');
                }
                answers.add(rows.toString());
            }
        }
        return answers;
    }
}
