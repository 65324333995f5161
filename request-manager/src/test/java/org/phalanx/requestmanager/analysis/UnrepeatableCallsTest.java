package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class UnrepeatableCallsTest {
    @Test
    void postgresClockInputsAreFoundInLiteralsOnly() {
        assertEquals("'now'", UnrepeatableCalls.clockLiteral("INSERT INTO t (id, at) VALUES (1, 'now')"));
        assertEquals("' Today '", UnrepeatableCalls.clockLiteral("UPDATE t SET d = ' Today ' WHERE id = 1"));
        assertEquals("'tomorrow'", UnrepeatableCalls.clockLiteral("INSERT INTO t VALUES ('a', 'x''y', 'tomorrow'::date)"));
        assertEquals("'yesterday'", UnrepeatableCalls.clockLiteral("DELETE FROM t WHERE d < DATE 'yesterday'"));
        assertNull(UnrepeatableCalls.clockLiteral("INSERT INTO t VALUES (?, ?)"));
        assertNull(UnrepeatableCalls.clockLiteral("INSERT INTO t VALUES ('nowhere', 'know', 'now''s')"));
        assertNull(UnrepeatableCalls.clockLiteral("INSERT INTO t VALUES (1) -- 'now'"));
        assertNull(UnrepeatableCalls.clockLiteral("INSERT INTO \"it's\" VALUES (now(), 'epoch', 'infinity')"));
        assertNull(UnrepeatableCalls.clockLiteral("/* don't */ INSERT INTO t VALUES (1)"));
    }

    @Test
    void callsFollowingTheReadOrderOfRowsAreFoundUnlessOrdered() {
        assertEquals("string_agg", UnrepeatableCalls.unorderedCall(
                "UPDATE o SET names = (SELECT string_agg(name, ',') FROM i WHERE i.o = o.id)"));
        assertEquals("group_concat", UnrepeatableCalls.unorderedCall(
                "INSERT INTO s (o, names) SELECT o, GROUP_CONCAT(DISTINCT name SEPARATOR ';') FROM i GROUP BY o"));
        assertEquals("array", UnrepeatableCalls.unorderedCall("INSERT INTO s VALUES (1, ARRAY(SELECT id FROM i))"));
        assertEquals("row_number", UnrepeatableCalls.unorderedCall(
                "INSERT INTO r SELECT id, row_number() OVER (PARTITION BY o) FROM i ORDER BY id"));
        assertEquals("DISTINCT ON", UnrepeatableCalls.unorderedCall(
                "INSERT INTO firsts SELECT DISTINCT ON (o) o, name FROM i"));
        assertEquals("array_agg", UnrepeatableCalls.unorderedCall(
                "CREATE TABLE s AS SELECT o, array_agg(name) FILTER (WHERE name <> 'x') AS names FROM i GROUP BY o"));

        assertNull(UnrepeatableCalls.unorderedCall(
                "UPDATE o SET names = (SELECT string_agg(name, ',' ORDER BY name) FROM i WHERE i.o = o.id)"));
        assertNull(UnrepeatableCalls.unorderedCall(
                "INSERT INTO s SELECT o, GROUP_CONCAT(name ORDER BY id SEPARATOR ';') FROM i GROUP BY o"));
        assertNull(UnrepeatableCalls.unorderedCall(
                "INSERT INTO r SELECT id, row_number() OVER (PARTITION BY o ORDER BY id), rank() OVER () FROM i"));
        assertNull(UnrepeatableCalls.unorderedCall(
                "INSERT INTO r SELECT id, array_agg(id) FILTER (WHERE id > 0) OVER (ORDER BY id) FROM i"));
        assertNull(UnrepeatableCalls.unorderedCall(
                "INSERT INTO r SELECT id, lag(id) OVER w FROM i WINDOW w AS (ORDER BY id)"));
        assertNull(UnrepeatableCalls.unorderedCall("INSERT INTO firsts SELECT DISTINCT ON (o) o, name FROM i ORDER BY o, id"));
        assertNull(UnrepeatableCalls.unorderedCall("INSERT INTO t VALUES ('string_agg(x)', ARRAY[1, 2])"));
        assertEquals("string_agg", UnrepeatableCalls.unorderedCall("SELECT add_order(string_agg(name, ',')) FROM i"),
                "a SELECT is asked only when it writes (a writing function)");
        assertNull(UnrepeatableCalls.unorderedCall("CREATE VIEW v AS SELECT string_agg(name, ',') AS n FROM i"),
                "a view stores no rows");
    }

    @Test
    void triggersThatReadTheClockOrRandomnessAreFound() {
        assertEquals("now()", UnrepeatableDdl.unrepeatableCall("CREATE OR REPLACE FUNCTION touch() RETURNS trigger AS $$"
                + " BEGIN NEW.updated_at = now(); RETURN NEW; END; $$ LANGUAGE plpgsql"));
        assertEquals("CURRENT_TIMESTAMP", UnrepeatableDdl.unrepeatableCall("create function t() returns TRIGGER"
                + " language plpgsql as 'begin new.at := CURRENT_TIMESTAMP; return new; end'"));
        assertEquals("RAND()", UnrepeatableDdl.unrepeatableCall(
                "CREATE DEFINER=`root`@`%` TRIGGER tt BEFORE UPDATE ON t FOR EACH ROW SET NEW.r = RAND()"));
        assertEquals("'now'", UnrepeatableDdl.unrepeatableCall("CREATE TRIGGER IF NOT EXISTS tt AFTER UPDATE ON t"
                + " BEGIN UPDATE t SET at = datetime('now') WHERE id = NEW.id; END"));
        assertEquals("random()", UnrepeatableDdl.unrepeatableCall(
                "CREATE TEMP TRIGGER tt AFTER INSERT ON t BEGIN UPDATE t SET r = random(); END"));
        assertNull(UnrepeatableDdl.unrepeatableCall(
                "CREATE TRIGGER audit AFTER UPDATE ON t FOR EACH ROW INSERT INTO audit VALUES (NEW.id)"));
        assertNull(UnrepeatableDdl.unrepeatableCall(
                "CREATE FUNCTION f() RETURNS timestamptz AS 'SELECT now()' LANGUAGE sql STABLE"), "serves reads");
        assertNull(UnrepeatableDdl.unrepeatableCall(
                "CREATE FUNCTION age(d DATE) RETURNS INT READS SQL DATA RETURN TIMESTAMPDIFF(YEAR, d, CURDATE())"));
        assertEquals("now()", UnrepeatableDdl.unrepeatableCall(
                "CREATE FUNCTION f() RETURNS timestamptz AS 'SELECT now()' LANGUAGE sql"), "volatile: it may write");
        assertEquals("UUID()", UnrepeatableDdl.unrepeatableCall(
                "CREATE FUNCTION f_uuid() RETURNS VARCHAR(64) NOT DETERMINISTIC RETURN UUID()"));
        assertEquals("UUID()", UnrepeatableDdl.unrepeatableCall(
                "CREATE PROCEDURE p() BEGIN INSERT INTO t1 (v) VALUES (UUID()); END"));
        assertNull(UnrepeatableDdl.unrepeatableCall("INSERT INTO t (now_at) VALUES (now())"), "not a trigger");
        assertEquals("clock_timestamp()", UnrepeatableDdl.unrepeatableCall(
                "ALTER TABLE w ADD COLUMN c1 timestamptz DEFAULT clock_timestamp()"), "fills the rows there");
        assertEquals("CURRENT_TIMESTAMP", UnrepeatableDdl.unrepeatableCall(
                "ALTER TABLE mv2 ADD COLUMN c DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6)"));
        assertNull(UnrepeatableDdl.unrepeatableCall("ALTER TABLE w ALTER COLUMN c1 SET DEFAULT now()"), "no row filled");
        assertEquals("random()", UnrepeatableDdl.unrepeatableCall(
                "CREATE RULE r AS ON INSERT TO w DO ALSO INSERT INTO wlog VALUES (random())"));
        assertEquals("clock_timestamp()", UnrepeatableDdl.unrepeatableCall(
                "CREATE MATERIALIZED VIEW mv AS SELECT clock_timestamp()"));
        assertNull(UnrepeatableDdl.unrepeatableCall("CREATE TABLE snowfall (id INT, known TEXT)"));
    }

    /** Found by an outside tester: each of these was accepted and left the replicas different. */
    @Test
    void backendValuesInDdlAnonymousBlocksNumberingsAndSequenceCachesAreFound() {
        assertEquals("current_database()", UnrepeatableDdl.unrepeatableCall(
                "ALTER TABLE w ADD COLUMN db text DEFAULT current_database()"));
        assertEquals("database()", UnrepeatableDdl.unrepeatableCall("ALTER TABLE w ADD COLUMN a VARCHAR(64) DEFAULT (database())"));
        assertEquals("pg_current_xact_id()", UnrepeatableDdl.unrepeatableCall("CREATE FUNCTION f() RETURNS trigger AS $$"
                + " BEGIN NEW.x = pg_current_xact_id()::text::bigint; RETURN NEW; END $$ LANGUAGE plpgsql"));
        assertEquals("gen_random_uuid()", UnrepeatableDdl.unrepeatableCall(
                "do $$ begin insert into tt values (50, gen_random_uuid()::text); end $$"));
        assertEquals("pg_backend_pid()", UnrepeatableDdl.unrepeatableCall("DO 'BEGIN INSERT INTO t VALUES (pg_backend_pid()); END'"));
        assertNull(UnrepeatableDdl.unrepeatableCall("DO $$ BEGIN INSERT INTO t VALUES (1, now()); END $$"),
                "the controller chooses now() in the block's text");

        assertTrue(UnrepeatableDdl.numbersExistingRows("ALTER TABLE big ADD COLUMN sn serial"));
        assertTrue(UnrepeatableDdl.numbersExistingRows("alter table big add sn BIGSERIAL"));
        assertTrue(UnrepeatableDdl.numbersExistingRows(
                "ALTER TABLE big ADD COLUMN sn integer GENERATED ALWAYS AS IDENTITY"));
        assertFalse(UnrepeatableDdl.numbersExistingRows("ALTER TABLE big ADD COLUMN note text"));
        assertFalse(UnrepeatableDdl.numbersExistingRows("CREATE TABLE t (id serial PRIMARY KEY)"), "no rows to number");

        assertTrue(UnrepeatableDdl.cachesSequenceValues("create sequence sc cache 10"));
        assertTrue(UnrepeatableDdl.cachesSequenceValues("ALTER SEQUENCE s CACHE 2"));
        assertTrue(UnrepeatableDdl.cachesSequenceValues(
                "CREATE TABLE t (id int GENERATED BY DEFAULT AS IDENTITY (CACHE 20) PRIMARY KEY)"));
        assertFalse(UnrepeatableDdl.cachesSequenceValues("CREATE SEQUENCE s CACHE 1"));
        assertFalse(UnrepeatableDdl.cachesSequenceValues("CREATE TABLE page_cache (sequence int, hits int)"));

        assertTrue(UnrepeatableDdl.schedulesEvent("CREATE EVENT e ON SCHEDULE EVERY 1 SECOND DO INSERT INTO t VALUES (1)"));
        assertTrue(UnrepeatableDdl.schedulesEvent("create definer=`root`@`%` event if not exists e on schedule every 1 day do delete from t"));
        assertFalse(UnrepeatableDdl.schedulesEvent("CREATE TABLE event (id INT)"));
    }

    @Test
    void postgresSystemColumnsAreFoundInCodeOnly() {
        assertEquals("xmin", UnrepeatableCalls.systemColumn("UPDATE acct SET bal = 90 WHERE id = 1 AND xmin = '4376'"));
        assertEquals("ctid", UnrepeatableCalls.systemColumn("DELETE FROM t a USING t b WHERE a.CTID < b.ctid AND a.x = b.x"));
        assertNull(UnrepeatableCalls.systemColumn("UPDATE t SET xmin_seen = 1, note = 'xmin' WHERE id = 1"));
        assertNull(UnrepeatableCalls.systemColumn("update book set pages=(b1_0.pages+1) from book b1_0 join author a1_0"
                + " on a1_0.id=b1_0.author_id where a1_0.name=? and book.ctid=b1_0.ctid"), "Hibernate's: a row matched to itself");
        assertEquals("ctid", UnrepeatableCalls.systemColumn("DELETE FROM t WHERE ctid = '(0,1)'"));
        assertNull(UnrepeatableCalls.systemColumn("INSERT INTO t VALUES (1)"));
    }

    @Test
    void writesPickingRowsByALimitWithoutOrderAreFound() {
        assertTrue(UnrepeatableCalls.limitWithoutOrder("UPDATE q SET st = 1 WHERE id IN (SELECT id FROM q WHERE st = 0 LIMIT 20)"));
        assertTrue(UnrepeatableCalls.limitWithoutOrder("DELETE FROM logs WHERE created < ? LIMIT 1000"));
        assertTrue(UnrepeatableCalls.limitWithoutOrder("INSERT INTO a SELECT * FROM b FETCH FIRST 5 ROWS ONLY"));
        assertFalse(UnrepeatableCalls.limitWithoutOrder("DELETE FROM logs WHERE created < ? ORDER BY id LIMIT 1000"));
        assertFalse(UnrepeatableCalls.limitWithoutOrder("UPDATE t SET note = 'limit' WHERE id = 1"));
        assertFalse(UnrepeatableCalls.limitWithoutOrder("UPDATE t SET rate_limit = 3 WHERE id = 1"));
        assertFalse(UnrepeatableCalls.limitWithoutOrder(
                "CREATE FUNCTION f() RETURNS int AS $$ SELECT id FROM t LIMIT 1 $$ LANGUAGE sql"));
    }

    @Test
    void serverAndConnectionValuesAreFound() {
        assertEquals("@@timestamp", UnrepeatableCalls.serverVariable("INSERT INTO t VALUES (1, @@timestamp)"));
        assertEquals("@@SESSION.pseudo_thread_id", UnrepeatableCalls.serverVariable(
                "UPDATE t SET v = @@SESSION.pseudo_thread_id WHERE id = 1"));
        assertNull(UnrepeatableCalls.serverVariable("UPDATE t SET v = @@sql_mode WHERE note = '@@timestamp'"));
        assertEquals("schema", UnrepeatableCalls.firstCall("INSERT INTO t VALUES (1, SCHEMA())"));
        assertEquals("pg_locks", UnrepeatableCalls.serverView(
                "INSERT INTO f2 (id, t) VALUES (10, (SELECT string_agg(pid::text, ',') FROM pg_locks))"));
        assertEquals("GLOBAL_STATUS", UnrepeatableCalls.serverView("INSERT INTO t SELECT 1, VARIABLE_VALUE FROM"
                + " information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'QUESTIONS'"));
        assertNull(UnrepeatableCalls.serverView("UPDATE orders SET status = 'pg_locks' WHERE id = 1"));
        assertNull(UnrepeatableCalls.serverView("UPDATE t SET order_status = 1 WHERE id = 1"));
        assertNull(UnrepeatableCalls.serverView("CREATE VIEW activity AS SELECT * FROM pg_stat_activity"));
        assertEquals("pg_relation_size", UnrepeatableCalls.firstCall("INSERT INTO t SELECT 1, pg_relation_size('q')"));
    }
}
