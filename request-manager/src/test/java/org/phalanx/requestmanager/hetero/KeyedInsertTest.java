package org.phalanx.requestmanager.hetero;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyedInsertTest {

    @Test
    void oneRowGetsItsKeyFirst() {
        KeyedInsert i = KeyedInsert.of("INSERT INTO events (owner, what) VALUES (?, ?)");
        assertEquals("events", i.table());
        assertEquals(List.of("owner", "what"), i.columns());
        assertEquals(1, i.rows());
        assertFalse(i.names("ID"));
        assertEquals("INSERT INTO events (id, owner, what) VALUES (41, ?, ?)", i.withKeys("id", new long[] {41}));
    }

    @Test
    void severalRowsGetOneKeyEach() {
        KeyedInsert i = KeyedInsert.of("INSERT INTO t (a) VALUES ('x'), ('y')");
        assertEquals(2, i.rows());
        assertEquals("INSERT INTO t (k, a) VALUES (7, 'x'), (8, 'y')", i.withKeys("k", new long[] {7, 8}));
    }

    @Test
    void forPostgresqlTheKeysOverrideAGeneratedAlwaysIdentity() {
        KeyedInsert i = KeyedInsert.of("insert into author (name) values (?) returning id");
        assertEquals("INSERT INTO author (id, name) OVERRIDING SYSTEM VALUE VALUES (61, ?) RETURNING id",
                i.withKeys("id", new long[] {61}, true));
        assertEquals("INSERT INTO author (id, name) VALUES (61, ?) RETURNING id", i.withKeys("id", new long[] {61}, false));
    }

    @Test
    void statementsThatCannotCarryKeys() {
        assertNull(KeyedInsert.of("INSERT INTO t VALUES (1, 2)"), "no column list");
        assertNull(KeyedInsert.of("INSERT INTO t (a) SELECT a FROM u"), "insert from a select");
        assertNull(KeyedInsert.of("UPDATE t SET a = 1"), "not an insert");
        assertTrue(KeyedInsert.of("INSERT INTO t (ID, a) VALUES (5, 1)").names("id"), "the key given by the application");
    }
}
