package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.phalanx.engine.Engine;

class LastInsertIdTest {
    private static final LastInsertId SQLITE = LastInsertId.of(Engine.SQLITE);
    private static final LastInsertId MARIADB = LastInsertId.of(Engine.MARIADB);

    @Test
    void callsBecomeTheSessionsValue() {
        assertEquals("select id from item where _rowid_ = 42",
                SQLITE.substitute("select id from item where _rowid_ = last_insert_rowid()", 42));
        assertEquals("INSERT INTO child (parent) VALUES (7), (7)",
                SQLITE.substitute("INSERT INTO child (parent) VALUES (LAST_INSERT_ROWID( )), (last_insert_rowid())", 7));
        assertEquals("SELECT 9", MARIADB.substitute("SELECT LAST_INSERT_ID()", 9));
    }

    @Test
    void otherMentionsAreLeftAlone() {
        String sql = "SELECT 'last_insert_rowid()', \"last_insert_rowid\", t.last_insert_rowid(), last_insert_rowid_x() -- last_insert_rowid()";
        assertSame(sql, SQLITE.substitute(sql, 1));
        String setting = "UPDATE seq SET id = LAST_INSERT_ID(id + 1)"; // sets it: runs on the backends
        assertSame(setting, MARIADB.substitute(setting, 1));
        assertNull(LastInsertId.of(Engine.POSTGRESQL));
    }

    @Test
    void insertsAndSettersChangeItAndAMariadbWriteThatGeneratedNothingKeepsTheLast() {
        assertTrue(MARIADB.changedBy(" insert into t (v) values (1)"));
        assertTrue(MARIADB.changedBy("REPLACE INTO t VALUES (1, 2)"));
        assertTrue(MARIADB.changedBy("UPDATE seq SET id = LAST_INSERT_ID(id + 1)"));
        assertFalse(MARIADB.changedBy("UPDATE t SET v = 1"));
        assertEquals(5, MARIADB.after(0, 5)); // nothing generated
        assertEquals(6, MARIADB.after(6, 5));
        assertEquals(0, SQLITE.after(0, 5));
    }

    @Test
    void aMariadbUpsertThatUpdatedEveryRowKeepsTheLastUnlessItSetsIt() {
        String upsert = "INSERT INTO t (id, v) VALUES (1, 2), (3, 4) ON DUPLICATE KEY UPDATE v = VALUES(v)";
        assertEquals(5, MARIADB.after(upsert, 4, 1, 5), "both rows updated: the id reported is an updated row's");
        assertEquals(1, MARIADB.after(upsert, 3, 1, 5), "one inserted");
        assertEquals(1, MARIADB.after("INSERT INTO t (id, v) VALUES (1, 2) ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)",
                2, 1, 5), "the idiom sets it");
        assertEquals(1, MARIADB.after("INSERT INTO t (id, v) VALUES (1, 2)", 2, 1, 5));
    }
}
