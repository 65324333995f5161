package org.phalanx.requestmanager.hetero;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyedInsertTest {

    @Test
    void oneRowGetsItsKeyAsTheFirstParameter() {
        KeyedInsert i = KeyedInsert.of("INSERT INTO events (owner, what) VALUES (?, ?)");
        assertEquals("events", i.table());
        assertEquals(List.of("owner", "what"), i.columns());
        assertEquals(1, i.rows());
        assertFalse(i.names("ID"));
        KeyedInsert.Keyed keyed = i.withKeys("id", new long[] {41}, List.of(7, "x"), null);
        assertEquals("INSERT INTO events (id, owner, what) VALUES (?, ?, ?)", keyed.sql());
        assertEquals(List.of(41L, 7, "x"), keyed.params());
        assertSame(keyed.sql(), i.withKeys("id", new long[] {42}, List.of(8, "y"), null).sql(),
                "one text for every insert of the statement");
    }

    @Test
    void rowsWithoutParametersGetOneKeyParameterEach() {
        KeyedInsert i = KeyedInsert.of("INSERT INTO t (a) VALUES ('x'), ('y')");
        assertEquals(2, i.rows());
        KeyedInsert.Keyed keyed = i.withKeys("k", new long[] {7, 8}, List.of(), null);
        assertEquals("INSERT INTO t (k, a) VALUES (?, 'x'), (?, 'y')", keyed.sql());
        assertEquals(List.of(7L, 8L), keyed.params());
    }

    @Test
    void rowsWithParametersGetTheirKeysAsLiterals() {
        KeyedInsert i = KeyedInsert.of("INSERT INTO t (a) VALUES (?), (?)");
        assertFalse(i.keysAsParameters(List.of("x", "y")));
        KeyedInsert.Keyed keyed = i.withKeys("k", new long[] {7, 8}, List.of("x", "y"), null);
        assertEquals("INSERT INTO t (k, a) VALUES (7, ?), (8, ?)", keyed.sql());
        assertEquals(List.of("x", "y"), keyed.params());
    }

    @Test
    void forPostgresqlTheKeysOverrideAGeneratedAlwaysIdentity() {
        KeyedInsert i = KeyedInsert.of("insert into author (name) values (?) returning id");
        assertEquals("INSERT INTO author (id, name) OVERRIDING SYSTEM VALUE VALUES (?, ?) RETURNING id",
                i.withKeys("id", new long[] {61}, List.of("n"), new KeyedInsert.PostgresKeys(null)).sql());
        assertEquals("INSERT INTO author (id, name) VALUES (?, ?) RETURNING id",
                i.withKeys("id", new long[] {61}, List.of("n"), null).sql());
    }

    @Test
    void forPostgresqlEachKeyMovesTheColumnsSequenceToIt() {
        KeyedInsert.PostgresKeys serial = new KeyedInsert.PostgresKeys("author_id_seq");
        assertEquals("INSERT INTO author (id, name) OVERRIDING SYSTEM VALUE VALUES (setval('author_id_seq', ?), ?)",
                KeyedInsert.of("INSERT INTO author (name) VALUES (?)").withKeys("id", new long[] {61}, List.of("n"), serial).sql());
        assertEquals("INSERT INTO author (id, name) OVERRIDING SYSTEM VALUE"
                        + " VALUES (setval('author_id_seq', 7), ?), (setval('author_id_seq', 8), ?)",
                KeyedInsert.of("INSERT INTO author (name) VALUES (?), (?)")
                        .withKeys("id", new long[] {7, 8}, List.of("a", "b"), serial).sql());
    }

    @Test
    void theKeysAStatementGivesItself() {
        KeyedInsert i = KeyedInsert.of("INSERT INTO t (id, a) VALUES (5, ?), (?, ?), (6 + 1, ?)");
        assertEquals(List.of(5L, 9L), i.keysGiven("ID", List.of("x", 9, "y", "z")), "literals and numbers bound");
        assertEquals(List.of(5L, 10L), i.keysGiven("id", List.of("x", 10, "y", "z")), "each element of a batch its own");
    }

    @Test
    void statementsThatCannotCarryKeys() {
        assertNull(KeyedInsert.of("INSERT INTO t VALUES (1, 2)"), "no column list");
        assertNull(KeyedInsert.of("INSERT INTO t (a) SELECT a FROM u"), "insert from a select");
        assertNull(KeyedInsert.of("UPDATE t SET a = 1"), "not an insert");
        assertNull(KeyedInsert.of("INSERT INTO t (a) VALUES (1) ON CONFLICT DO NOTHING"), "may insert no row");
        assertNull(KeyedInsert.of("INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET b = 2"), "may update");
        assertNull(KeyedInsert.of("INSERT IGNORE INTO t (a) VALUES (1)"), "may insert no row");
        assertNull(KeyedInsert.of("INSERT INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE b = 2"), "may update");
        assertTrue(KeyedInsert.of("INSERT INTO t (ID, a) VALUES (5, 1)").names("id"), "the key given by the application");
    }
}
