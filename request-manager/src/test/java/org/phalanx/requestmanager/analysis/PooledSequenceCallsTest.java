package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PooledSequenceCallsTest {
    @Test
    void findsCallsInQueriesAndDataChanges() {
        assertTrue(PooledSequenceCalls.calls("SELECT currval('parent_id_seq')"));
        assertTrue(PooledSequenceCalls.calls("select LASTVAL ()"));
        assertTrue(PooledSequenceCalls.calls("INSERT INTO child (parent_id) VALUES (pg_catalog.currval('parent_id_seq'))"));
        assertTrue(PooledSequenceCalls.calls("WITH p AS (SELECT lastval() AS id) SELECT id FROM p"));
    }

    @Test
    void leavesLiteralsCommentsColumnsAndDdlAlone() {
        assertFalse(PooledSequenceCalls.calls("SELECT 'currval(x)', \"lastval\" FROM t -- lastval()"));
        assertFalse(PooledSequenceCalls.calls("SELECT currval_total FROM t"));
        assertFalse(PooledSequenceCalls.calls("SELECT nextval('s')"));
        assertFalse(PooledSequenceCalls.calls("CREATE FUNCTION f() RETURNS bigint AS 'SELECT currval(''s'')' LANGUAGE sql"));
    }
}
