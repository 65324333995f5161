package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.update;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Session commands are the session's (issue 18): a {@code SET} on one client connection changes
 * what its reads and writes do on every backend — pooled connections and transaction branches
 * alike — and nothing for other sessions (the pools get their connections back clean); it never
 * waits for another client's open writing transaction; a wrong parameter fails as the engine
 * says and changes nothing. Two backends of PostgreSQL, then of MariaDB.
 */
class SessionStateIT extends WithEngineCluster {
    /** Reads repeated so both backends serve some (least-pending balancing alternates between idle ones). */
    private static final int READS = 20;

    @Test
    void postgresqlSearchPathIsTheSessionsOnEveryBackend() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_session_pg", "");
        try (Connection setup = cluster.connect(); Statement s = setup.createStatement()) {
            s.executeUpdate("CREATE SCHEMA s2");
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(10) NOT NULL)");
            s.executeUpdate("CREATE TABLE s2.t (id INTEGER PRIMARY KEY, v VARCHAR(10) NOT NULL)");
            s.executeUpdate("CREATE TABLE s2.only_s2 (id INTEGER PRIMARY KEY, v VARCHAR(10) NOT NULL)");
            s.executeUpdate("INSERT INTO t VALUES (1, 'public')");
            s.executeUpdate("INSERT INTO s2.t VALUES (1, 's2')");
        }
        try (Connection longTx = cluster.connect(); Connection a = cluster.connect()) {
            longTx.setAutoCommit(false);
            update(longTx, "UPDATE t SET v = 'public' WHERE id = 1"); // holds its locks until the end

            notWaitingFor(longTx, () -> execute(a, "SET search_path TO s2, public"));
            assertEveryRead(a, "SELECT v FROM t WHERE id = 1", "s2");
            assertEveryRead(a, "SHOW search_path", "s2, public");
            update(a, "INSERT INTO only_s2 VALUES (1, 'auto')");
            a.setAutoCommit(false);
            update(a, "INSERT INTO only_s2 VALUES (2, 'tx')");
            a.commit();
            a.setAutoCommit(true);

            try (Connection b = cluster.connect()) {
                assertEveryRead(b, "SHOW search_path", "\"$user\", public");
                assertEveryRead(b, "SELECT v FROM t WHERE id = 1", "public");
            }
            SQLException wrong = assertThrows(SQLException.class, () -> execute(a, "SET no_such_parameter = 1"));
            assertEquals("42704", wrong.getSQLState(), wrong.getMessage());
            assertEveryRead(a, "SHOW search_path", "s2, public");

            // inside a transaction: the branch already open switches, after the statements before
            a.setAutoCommit(false);
            update(a, "INSERT INTO only_s2 VALUES (3, 'before')");
            execute(a, "RESET search_path");
            assertEveryRead(a, "SELECT v FROM t WHERE id = 1", "public");
            a.commit();
            a.setAutoCommit(true);
            assertEveryRead(a, "SHOW search_path", "\"$user\", public");
            // as on PostgreSQL, a SET inside a transaction that rolls back is undone with it
            a.setAutoCommit(false);
            execute(a, "SET search_path TO s2, public");
            assertEveryRead(a, "SHOW search_path", "s2, public");
            a.rollback();
            a.setAutoCommit(true);
            assertEveryRead(a, "SHOW search_path", "\"$user\", public");
            longTx.commit();
        }
        for (String backend : cluster.backends()) {
            try (Connection direct = cluster.direct(backend)) {
                assertEquals("auto,tx,before", column(direct, "SELECT string_agg(v, ',' ORDER BY id) FROM s2.only_s2"),
                        "the writes went to s2 on " + backend);
            }
        }
        cluster.assertAllEnabled();
    }

    /**
     * Writes made under session settings are replayed under them: a backend disabled meanwhile
     * catches up from the recovery log with each write in the schema (PostgreSQL) or time zone
     * (MariaDB) its session had, inside transactions too (a setting changed mid-transaction
     * included), and ends identical to the backend that stayed.
     */
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void writesUnderSessionSettingsAreReplayedUnderThem(Kind kind) throws Exception {
        boolean pg = kind == Kind.POSTGRESQL;
        cluster = new EngineCluster(dir, kind, 2, "phalanx_session_replay", "", "", "<recoveryLog dir=\"log\"/>");
        try (Connection setup = cluster.connect(); Statement s = setup.createStatement()) {
            if (pg) {
                s.executeUpdate("CREATE SCHEMA s2");
                s.executeUpdate("CREATE TABLE s2.t (id INTEGER PRIMARY KEY, v VARCHAR(30) NOT NULL)");
            }
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(30) NOT NULL)");
        }
        String b2 = cluster.backends().get(1);
        cluster.vdb().disableBackend(b2);
        String set = pg ? "SET search_path TO s2, public" : "SET time_zone = '+05:00'";
        String value = pg ? "'s2'" : "CAST(FROM_UNIXTIME(0) AS CHAR)";
        try (Connection a = cluster.connect()) {
            execute(a, set);
            update(a, "INSERT INTO t VALUES (1, " + value + ")");
            a.setAutoCommit(false);
            update(a, "INSERT INTO t VALUES (2, " + value + ")");
            update(a, "INSERT INTO t VALUES (3, " + value + ")");
            a.commit();
            update(a, "INSERT INTO t VALUES (4, " + value + ")");
            execute(a, pg ? "RESET search_path" : "SET time_zone = DEFAULT"); // mid-transaction (MariaDB keeps it)
            update(a, "INSERT INTO t VALUES (5, " + (pg ? "'public'" : "'default'") + ")");
            a.commit();
            a.setAutoCommit(true);
        }
        cluster.vdb().enableBackend(b2); // replays the log
        cluster.assertAllEnabled();
        String expected = pg ? "1:s2,2:s2,3:s2,4:s2" : "1:1970-01-01 05:00:00,2:1970-01-01 05:00:00,"
                + "3:1970-01-01 05:00:00,4:1970-01-01 05:00:00,5:default";
        String rows = pg ? "SELECT string_agg(id || ':' || v, ',' ORDER BY id) FROM s2.t"
                : "SELECT GROUP_CONCAT(id, ':', v ORDER BY id) FROM t";
        for (String backend : cluster.backends()) {
            try (Connection direct = cluster.direct(backend)) {
                assertEquals(expected, column(direct, rows), backend);
                if (pg) {
                    assertEquals("5:public", column(direct, "SELECT string_agg(id || ':' || v, ',') FROM public.t"),
                            backend);
                }
            }
        }
    }

    /**
     * SQLite's per-connection pragmas are the session's: {@code PRAGMA foreign_keys = ON} makes
     * its writes checked on every backend, other sessions keep the backends' own setting, and the
     * pool hands out no connection that kept it.
     */
    @Test
    void sqliteConnectionPragmasAreTheSessions() throws Exception {
        cluster = new EngineCluster(dir, Kind.SQLITE, 2, "phalanx_session_lite", "");
        try (Connection setup = cluster.connect(); Statement s = setup.createStatement()) {
            s.executeUpdate("CREATE TABLE parent (id INTEGER PRIMARY KEY)");
            s.executeUpdate("CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id))");
        }
        String before;
        try (Connection b = cluster.connect()) {
            before = column(b, "PRAGMA foreign_keys");
        }
        String on = before.equals("1") ? "OFF" : "ON";
        String expected = before.equals("1") ? "0" : "1";
        try (Connection a = cluster.connect(); Connection b = cluster.connect()) {
            execute(a, "PRAGMA foreign_keys = " + on);
            assertEveryRead(a, "PRAGMA foreign_keys", expected);
            assertEveryRead(b, "PRAGMA foreign_keys", before);
            if (on.equals("ON")) {
                assertThrows(SQLException.class, () -> update(a, "INSERT INTO child VALUES (1, 42)"),
                        "an orphan, refused on the session's connections");
                update(b, "INSERT INTO child VALUES (2, 42)"); // the other session's own setting: no check
            }
        }
        try (Connection c = cluster.connect()) {
            assertEveryRead(c, "PRAGMA foreign_keys", before); // no pooled connection kept the pragma
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("child", "id");
    }

    /**
     * SQLite's {@code last_insert_rowid()} is the session's: after its insert, on every read (whichever
     * pooled connection serves it), in a transaction too, and in the next insert, where each replica
     * stores the same value (SQLite's own idiom for a child row). Another session's inserts do not
     * change it; 0 before the session's first insert, as SQLite says.
     */
    @Test
    void sqliteLastInsertRowidIsTheSessions() throws Exception {
        cluster = new EngineCluster(dir, Kind.SQLITE, 2, "phalanx_session_rowid", "", "", "<recoveryLog dir=\"log\"/>");
        try (Connection a = cluster.connect(); Connection b = cluster.connect()) {
            execute(a, "CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT)");
            execute(a, "CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER)");
            assertEveryRead(b, "SELECT last_insert_rowid()", "0");
            update(a, "INSERT INTO parent (name) VALUES ('first')");
            update(a, "INSERT INTO parent (name) VALUES ('second')");
            update(b, "INSERT INTO parent (name) VALUES ('other session')");
            assertEveryRead(a, "SELECT last_insert_rowid()", "2");
            assertEveryRead(b, "SELECT last_insert_rowid()", "3");
            update(a, "INSERT INTO child (parent_id) VALUES (last_insert_rowid())");
            SQLException refused = assertThrows(SQLException.class, () -> column(a, "SELECT changes()"));
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());
            assertEveryRead(a, "SELECT parent_id FROM child WHERE id = last_insert_rowid()", "2");
            a.setAutoCommit(false);
            update(a, "INSERT INTO parent (name) VALUES ('in a transaction')");
            assertEquals("4", column(a, "SELECT last_insert_rowid()"));
            a.commit();
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("parent", "id");
        cluster.assertIdentical("child", "id");
    }

    /**
     * MariaDB's {@code LAST_INSERT_ID()} is the session's, as on one MariaDB (which the same script
     * runs against first): the first id of its last INSERT that generated one (an INSERT into a table
     * without AUTO_INCREMENT keeps it), whichever pooled connection serves the call; another
     * session's inserts do not change it; {@code LAST_INSERT_ID(expr)} sets it (the sequence idiom, and
     * in an upsert); an upsert that only updated leaves it (it took the updated row's id);
     * a child row inserted with it holds the same parent on every replica. The documented difference:
     * after an INSERT of an explicit id, the virtual database answers that id.
     */
    @Test
    void mariadbLastInsertIdIsTheSessions() throws Exception {
        List<String> expected = List.of("0", "2", "4", "2", "2", "11", "5", "7", "6");
        try (DirectDatabase direct = new DirectDatabase(dir, Kind.MARIADB, "phalanx_session_lid_direct")) {
            assertEquals(expected, lastInsertIdScript(direct));
        }
        cluster = new EngineCluster(dir, Kind.MARIADB, 2, "phalanx_session_lid", "");
        assertEquals(expected, lastInsertIdScript(cluster::connect));
        try (Connection c = cluster.connect()) {
            update(c, "INSERT INTO parent (id, name) VALUES (100, 'explicit')");
            assertEquals("100", column(c, "SELECT LAST_INSERT_ID()"));
            // about the connection's previous statement, which may have run anywhere: refused, not answered wrong
            SQLException refused = assertThrows(SQLException.class, () -> column(c, "SELECT FOUND_ROWS()"));
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("parent", "id");
        cluster.assertIdentical("child", "id");
    }

    /**
     * The same with a recovery log, where the controller chooses the keys and the backends are given
     * them: after a multi-row INSERT the session's value was the last id, not the first (an outside
     * tester's finding).
     */
    @Test
    void mariadbLastInsertIdIsTheSessionsWhenTheControllerChoosesTheKeys() throws Exception {
        cluster = new EngineCluster(dir, Kind.MARIADB, 2, "phalanx_session_lid_keys", "", "", "<recoveryLog dir=\"log\"/>");
        assertEquals(List.of("0", "2", "4", "2", "2", "11", "5", "7", "6"), lastInsertIdScript(cluster::connect));
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("parent", "id");
        cluster.assertIdentical("child", "id");
    }

    /**
     * PostgreSQL's {@code currval()} and {@code lastval()}: inside a transaction that has written they
     * answer the session's own value, as on one PostgreSQL, and a child row inserted with it holds the
     * same parent on every replica; outside one (where a pooled connection would answer another
     * client's value) they are refused with 0A000, and the refused insert wrote nothing.
     */
    @Test
    void postgresqlCurrvalIsTheTransactionsOrRefused() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_session_currval", "");
        try (Connection a = cluster.connect(); Connection other = cluster.connect()) {
            execute(a, "CREATE TABLE parent (id SERIAL PRIMARY KEY, name VARCHAR(20))");
            execute(a, "CREATE TABLE child (id SERIAL PRIMARY KEY, parent_id INTEGER)");
            update(a, "INSERT INTO parent (name) VALUES ('auto-commit')");
            SQLException refused = assertThrows(SQLException.class, () -> column(a, "SELECT currval('parent_id_seq')"));
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());
            refused = assertThrows(SQLException.class,
                    () -> update(a, "INSERT INTO child (parent_id) VALUES (lastval())"));
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());
            assertEquals("0", column(a, "SELECT count(*) FROM child"));

            update(other, "INSERT INTO parent (name) VALUES ('another client')"); // its connection's value is 2

            a.setAutoCommit(false);
            update(a, "INSERT INTO parent (name) VALUES ('in a transaction')");
            update(a, "INSERT INTO child (parent_id) VALUES (currval('parent_id_seq'))");
            assertEquals("3", column(a, "SELECT currval('parent_id_seq')"));
            assertEquals("1", column(a, "SELECT lastval()")); // the last value taken: the child's own id
            assertEquals("3", column(a, "SELECT parent_id FROM child"));
            a.commit();
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("parent", "id");
        cluster.assertIdentical("child", "id");
    }

    /**
     * With a recovery log the controller chooses serial keys, and the backends' sequences never hand
     * them out: {@code currval()} and {@code lastval()} answered a stale value or 55000, and a child
     * row inserted with {@code currval} held another parent (an outside tester's finding). Now they
     * are the session's own values, as on one PostgreSQL, in a transaction or not.
     */
    @Test
    void postgresqlCurrvalIsTheSessionsWhenTheControllerChoosesTheKeys() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_session_currval_keys", "", "",
                "<recoveryLog dir=\"log\"/>");
        try (Connection a = cluster.connect(); Connection other = cluster.connect()) {
            execute(a, "CREATE TABLE parent (id SERIAL PRIMARY KEY, name VARCHAR(20))");
            execute(a, "CREATE TABLE child (id SERIAL PRIMARY KEY, parent_id INTEGER)");
            update(a, "INSERT INTO parent (name) VALUES ('auto-commit')");
            update(other, "INSERT INTO parent (name) VALUES ('another client')");
            assertEquals("1", column(a, "SELECT currval('parent_id_seq')"));
            assertEquals("2", column(other, "SELECT currval('public.parent_id_seq'::regclass)"));
            try (Statement s = a.createStatement();
                 ResultSet rs = s.executeQuery("SELECT currval('parent_id_seq'), lastval() AS l, currval('parent_id_seq') + 1")) {
                rs.next(); // named and typed as PostgreSQL answers: bigint columns currval, l and ?column?
                assertEquals(List.of("currval", "l", "?column?"), List.of(rs.getMetaData().getColumnLabel(1),
                        rs.getMetaData().getColumnLabel(2), rs.getMetaData().getColumnLabel(3)));
                assertEquals(List.of(1L, 1L, 2L), List.of(rs.getObject(1), rs.getObject(2), rs.getObject(3)));
            }

            a.setAutoCommit(false);
            update(a, "INSERT INTO parent (name) VALUES ('in a transaction')");
            update(a, "INSERT INTO child (parent_id) VALUES (currval('parent_id_seq'))");
            assertEquals("3", column(a, "SELECT currval('parent_id_seq')"));
            assertEquals("1", column(a, "SELECT lastval()")); // the last value taken: the child's own id
            a.commit();
            assertEquals("3", column(a, "SELECT parent_id FROM child"));
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("parent", "id");
        cluster.assertIdentical("child", "id");
    }

    /** What two sessions see of {@code LAST_INSERT_ID()} as they insert. */
    private static List<String> lastInsertIdScript(ConnectionSource db) throws SQLException {
        List<String> seen = new ArrayList<>();
        try (Connection a = db.connect(); Connection b = db.connect()) {
            execute(a, "CREATE TABLE parent (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20))");
            execute(a, "CREATE TABLE child (id INT AUTO_INCREMENT PRIMARY KEY, parent_id INT)");
            execute(a, "CREATE TABLE seq (id INT NOT NULL)");
            update(a, "INSERT INTO seq VALUES (0)");
            seen.add(column(b, "SELECT LAST_INSERT_ID()"));
            update(a, "INSERT INTO parent (name) VALUES ('first')");
            update(a, "INSERT INTO parent (name) VALUES ('second'), ('third')");
            update(b, "INSERT INTO parent (name) VALUES ('other session')");
            seen.add(column(a, "SELECT LAST_INSERT_ID()"));
            seen.add(column(b, "SELECT LAST_INSERT_ID()"));
            update(a, "INSERT INTO seq VALUES (1)"); // no AUTO_INCREMENT column
            seen.add(column(a, "SELECT LAST_INSERT_ID()"));
            update(a, "INSERT INTO child (parent_id) VALUES (LAST_INSERT_ID())");
            seen.add(column(a, "SELECT parent_id FROM child WHERE id = LAST_INSERT_ID()"));
            update(a, "UPDATE seq SET id = LAST_INSERT_ID(id + 10)");
            seen.add(column(a, "SELECT LAST_INSERT_ID()"));
            a.setAutoCommit(false);
            update(a, "INSERT INTO parent (name) VALUES ('in a transaction')");
            seen.add(column(a, "SELECT LAST_INSERT_ID()"));
            a.commit();
            a.setAutoCommit(true);
            // an upsert that updated its row inserted none: the value stays (MariaDB reports the row's id
            // in its answer, which the session took); unless the upsert sets it, as the idiom does
            update(a, "INSERT INTO parent (id, name) VALUES (6, 'sixth')");
            update(a, "INSERT INTO parent (name) VALUES ('seventh')");
            update(a, "INSERT INTO parent (id, name) VALUES (6, 'six') ON DUPLICATE KEY UPDATE name = 'six'");
            seen.add(column(a, "SELECT LAST_INSERT_ID()"));
            update(a, "INSERT INTO parent (id, name) VALUES (6, '6') ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id),"
                    + " name = '6'");
            seen.add(column(a, "SELECT LAST_INSERT_ID()"));
        }
        return seen;
    }

    /**
     * PostgreSQL's {@code SET LOCAL}: nothing outside a transaction; inside one, the transaction's
     * reads (before its first write too) and writes see it on every backend, until it ends,
     * committed or rolled back; a session value set before comes back; it never waits for another
     * client's transaction.
     */
    @Test
    void postgresqlSetLocalLastsUntilTheTransactionEnds() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_session_local", "");
        try (Connection setup = cluster.connect(); Statement s = setup.createStatement()) {
            s.executeUpdate("CREATE SCHEMA s2");
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(10) NOT NULL)");
            s.executeUpdate("CREATE TABLE s2.t (id INTEGER PRIMARY KEY, v VARCHAR(10) NOT NULL)");
            s.executeUpdate("INSERT INTO t VALUES (1, 'public')");
            s.executeUpdate("INSERT INTO s2.t VALUES (1, 's2')");
            s.executeUpdate("CREATE TABLE s2.only_s2 (id INTEGER PRIMARY KEY, v VARCHAR(10) NOT NULL)");
        }
        String defaultPath = "\"$user\", public";
        try (Connection longTx = cluster.connect(); Connection a = cluster.connect()) {
            longTx.setAutoCommit(false);
            update(longTx, "UPDATE t SET v = 'public' WHERE id = 1");

            execute(a, "SET LOCAL search_path TO s2"); // outside a transaction: nothing
            assertEveryRead(a, "SHOW search_path", defaultPath);
            for (boolean commit : new boolean[] {true, false}) {
                a.setAutoCommit(false);
                notWaitingFor(longTx, () -> execute(a, "SET LOCAL search_path TO s2, public"));
                assertEveryRead(a, "SELECT v FROM t WHERE id = 1", "s2");
                update(a, "INSERT INTO only_s2 VALUES (" + (commit ? 1 : 2) + ", 'local')");
                assertEveryRead(a, "SHOW search_path", "s2, public");
                if (commit) {
                    a.commit();
                } else {
                    a.rollback();
                }
                a.setAutoCommit(true);
                assertEveryRead(a, "SHOW search_path", defaultPath);
            }
            execute(a, "SET search_path TO s2"); // a session value comes back after a local one
            a.setAutoCommit(false);
            execute(a, "SET LOCAL search_path TO public");
            assertEveryRead(a, "SELECT v FROM t WHERE id = 1", "public");
            a.commit();
            a.setAutoCommit(true);
            assertEveryRead(a, "SHOW search_path", "s2");
            longTx.commit();
        }
        for (String backend : cluster.backends()) {
            try (Connection direct = cluster.direct(backend)) {
                assertEquals("1:local", column(direct, "SELECT string_agg(id || ':' || v, ',') FROM s2.only_s2"), backend);
                assertEquals("1", column(direct, "SELECT COUNT(*) FROM public.t"), backend);
            }
        }
        cluster.assertAllEnabled();
    }

    /**
     * A parameter first set inside a transaction, after its branches were opened without any, is
     * reset when they go back to the pool: no other session gets a connection that kept it.
     */
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void aSettingMadeInsideATransactionLeavesNoPooledConnection(Kind kind) throws Exception {
        boolean pg = kind == Kind.POSTGRESQL;
        cluster = new EngineCluster(dir, kind, 2, "phalanx_session_leak", "");
        String show = pg ? "SHOW search_path" : "SELECT @@session.time_zone";
        try (Connection setup = cluster.connect(); Statement s = setup.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
        }
        String before;
        try (Connection b = cluster.connect()) {
            before = column(b, show);
        }
        for (int round = 0; round < 5; round++) {
            try (Connection a = cluster.connect()) {
                a.setAutoCommit(false);
                update(a, "INSERT INTO t VALUES (" + round + ")"); // its branches open, with no settings
                execute(a, pg ? "SET search_path TO pg_catalog" : "SET time_zone = '+03:00'");
                a.commit();
            }
            try (Connection b = cluster.connect()) {
                assertEveryRead(b, show, before);
            }
        }
        cluster.assertAllEnabled();
    }

    /** As pgjdbc does on one database: switching auto-commit on after a failed statement rolls back. */
    @Test
    void postgresqlSetAutoCommitAfterAFailedStatementRollsBack() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_session_pg", "");
        try (Connection setup = cluster.connect(); Statement s = setup.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
        }
        try (Connection virtual = cluster.connect(); Connection direct = cluster.direct(cluster.backends().get(0))) {
            for (Connection c : java.util.List.of(direct, virtual)) {
                String who = c == direct ? "pgjdbc on one database" : "Phalanx";
                c.setAutoCommit(false);
                update(c, "INSERT INTO t VALUES (" + (c == direct ? 100 : 1) + ")");
                assertThrows(SQLException.class, () -> update(c, "INSERT INTO t VALUES (1/0)"), who);
                c.setAutoCommit(true);
                assertTrue(c.getAutoCommit(), who);
                assertEquals("0", column(c, "SELECT COUNT(*) FROM t"), who + ": the transaction rolled back");
            }
        }
    }

    @Test
    void mariadbTimeZoneAndModesAreTheSessionsOnEveryBackend() throws Exception {
        cluster = new EngineCluster(dir, Kind.MARIADB, 2, "phalanx_session_my", "");
        try (Connection setup = cluster.connect(); Statement s = setup.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
            s.executeUpdate("CREATE TABLE ts (id INTEGER PRIMARY KEY, at VARCHAR(30) NOT NULL)");
            s.executeUpdate("INSERT INTO t VALUES (1, 0)");
        }
        try (Connection longTx = cluster.connect(); Connection a = cluster.connect()) {
            longTx.setAutoCommit(false);
            update(longTx, "UPDATE t SET v = v + 1 WHERE id = 1");

            notWaitingFor(longTx, () -> execute(a, "SET time_zone = '+05:00'"));
            execute(a, "SET foreign_key_checks = 0, sql_safe_updates = 1");
            execute(a, "SET @batch = 42, @label := 'it''s'"); // user variables set to literals: the session's too
            assertEveryRead(a, "SELECT CONCAT(@batch, ' ', @label)", "42 it's");
            // set to an expression: computed once (a random number, a subquery, one of the others), the same everywhere
            notWaitingFor(longTx, () -> execute(a, "SET @r = RAND(), @n = (SELECT COUNT(*) FROM ts), @next = @batch + 1"));
            String r = column(a, "SELECT @r");
            assertEveryRead(a, "SELECT CONCAT(@r, ' ', @n, ' ', @next)", r + " 0 43");
            update(a, "INSERT INTO ts VALUES (2, @r)");
            assertEveryRead(a, "SELECT @@session.time_zone", "+05:00");
            assertEveryRead(a, "SELECT @@session.foreign_key_checks", "0");
            // a write computed in the session's time zone, on every backend
            update(a, "INSERT INTO ts VALUES (1, CAST(FROM_UNIXTIME(0) AS CHAR))");
            try (Connection b = cluster.connect()) {
                assertEveryRead(b, "SELECT @@session.time_zone", "SYSTEM");
                assertEveryRead(b, "SELECT @@session.foreign_key_checks", "1");
                assertEveryRead(b, "SELECT @batch", null);
            }
            SQLException wrong = assertThrows(SQLException.class, () -> execute(a, "SET SESSION no_such_variable = 1"));
            assertEquals("HY000", wrong.getSQLState(), wrong.getMessage());
            execute(a, "SET time_zone = DEFAULT");
            assertEveryRead(a, "SELECT @@session.time_zone", "SYSTEM");
            longTx.commit();
        }
        for (String backend : cluster.backends()) {
            try (Connection direct = cluster.direct(backend)) {
                assertEquals("1970-01-01 05:00:00", column(direct, "SELECT at FROM ts WHERE id = 1"), backend);
            }
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("ts", "id"); // the same random number on both
    }

    private interface Work {
        void run() throws Exception;
    }

    /** The work finishes while {@code open}'s transaction is still open (it would wait 20 s, then fail, if it waited for it). */
    private static void notWaitingFor(Connection open, Work work) throws Exception {
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
            try {
                work.run();
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        done.get(10, TimeUnit.SECONDS);
        assertFalse(open.getAutoCommit(), "the other transaction is still open");
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static void assertEveryRead(Connection c, String sql, String expected) throws SQLException {
        for (int i = 0; i < READS; i++) {
            assertEquals(expected, column(c, sql), sql + " (read " + i + ")");
        }
    }

    private static String column(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
