package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.engine.Engine;

class PooledSessionCallsTest {
    private static final List<Engine> PG = List.of(Engine.POSTGRESQL);

    @Test
    void postgresSequenceFunctionsAreRefusedOutsideATransactionThatHasWritten() {
        assertEquals("currval", PooledSessionCalls.refused("SELECT currval('parent_id_seq')", () -> PG, false));
        assertEquals("lastval", PooledSessionCalls.refused("select LASTVAL ()", () -> PG, false));
        assertEquals("currval", PooledSessionCalls.refused(
                "INSERT INTO child (parent_id) VALUES (pg_catalog.currval('parent_id_seq'))", () -> PG, false));
        assertEquals("lastval", PooledSessionCalls.refused("WITH p AS (SELECT lastval() AS id) SELECT id FROM p", () -> PG, false));
        assertNull(PooledSessionCalls.refused("SELECT currval('parent_id_seq')", () -> PG, true));
    }

    @Test
    void mariaDbSequenceValuesAreRefusedOutsideATransactionThatHasWritten() {
        List<Engine> maria = List.of(Engine.MARIADB);
        assertEquals("previous value for", PooledSessionCalls.refused(
                "INSERT INTO r VALUES (1, PREVIOUS VALUE FOR s)", () -> maria, false));
        assertEquals("lastval", PooledSessionCalls.refused("SELECT LASTVAL(s)", () -> maria, false));
        assertNull(PooledSessionCalls.refused("INSERT INTO r VALUES (1, previous value for s)", () -> maria, true));
        assertNull(PooledSessionCalls.refused("SELECT 'previous value for s'", () -> maria, false));
        assertNull(PooledSessionCalls.refused("SELECT NEXT VALUE FOR s", () -> maria, false));
        assertNull(PooledSessionCalls.refused("INSERT INTO r VALUES (1, previous value for s)", () -> PG, false));
    }

    @Test
    void previousStatementFunctionsAreRefusedAlways() {
        assertEquals("found_rows", PooledSessionCalls.refused("SELECT FOUND_ROWS()", () -> List.of(Engine.MARIADB), true));
        assertEquals("row_count", PooledSessionCalls.refused("SELECT ROW_COUNT()", () -> List.of(Engine.MARIADB), false));
        assertEquals("changes", PooledSessionCalls.refused("SELECT changes()", () -> List.of(Engine.SQLITE), true));
        assertNull(PooledSessionCalls.refused("SELECT changes()", () -> PG, false)); // another engine's name: the engine answers
    }

    @Test
    void thePrefilterLooksAtTheWordBeforeEachParenthesis() {
        List<String> names = List.of("currval", "lastval");
        assertEquals(true, SqlLexer.mayCall("SELECT CurrVal ('s')", names));
        assertEquals(true, SqlLexer.mayCall("SELECT x FROM t WHERE id = lastval()", names));
        assertEquals(false, SqlLexer.mayCall("UPDATE accounts SET abalance = abalance + ? WHERE aid = ?", names));
        assertEquals(false, SqlLexer.mayCall("INSERT INTO currval_log (lastval) VALUES (1)", names));
        assertEquals(false, SqlLexer.mayCall("SELECT my_currval('s')", names));
    }

    @Test
    void leavesLiteralsCommentsColumnsAndDdlAlone() {
        assertNull(PooledSessionCalls.refused("SELECT 'currval(x)', \"lastval\" FROM t -- lastval()", () -> PG, false));
        assertNull(PooledSessionCalls.refused("SELECT currval_total, changes FROM t", () -> List.of(Engine.POSTGRESQL, Engine.SQLITE), false));
        assertNull(PooledSessionCalls.refused("SELECT nextval('s')", () -> PG, false));
        assertNull(PooledSessionCalls.refused("CREATE FUNCTION f() RETURNS bigint AS 'SELECT currval(''s'')' LANGUAGE sql", () -> PG, false));
    }
}
