package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class LastInsertRowidTest {
    @Test
    void callsBecomeTheSessionsValue() {
        assertEquals("select id from item where _rowid_ = 42",
                LastInsertRowid.substitute("select id from item where _rowid_ = last_insert_rowid()", 42));
        assertEquals("INSERT INTO child (parent) VALUES (7), (7)",
                LastInsertRowid.substitute("INSERT INTO child (parent) VALUES (LAST_INSERT_ROWID( )), (last_insert_rowid())", 7));
    }

    @Test
    void otherMentionsAreLeftAlone() {
        String sql = "SELECT 'last_insert_rowid()', \"last_insert_rowid\", t.last_insert_rowid(), last_insert_rowid_x() -- last_insert_rowid()";
        assertSame(sql, LastInsertRowid.substitute(sql, 1));
    }
}
