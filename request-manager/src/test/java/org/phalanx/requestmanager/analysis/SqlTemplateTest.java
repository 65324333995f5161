package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SqlTemplateTest {
    @Test
    void numbersAndStringsBecomePlaceholders() {
        assertEquals("SELECT * FROM t WHERE id = ? AND name = ?",
                SqlTemplate.of("SELECT * FROM t WHERE id = 42 AND name = 'it''s'"));
        assertEquals("INSERT INTO t VALUES (?, ?, ?, ?)", SqlTemplate.of("INSERT INTO t VALUES (1.5, -2, .5, 1e-3)")
                .replace("-?", "?"));
    }

    @Test
    void identifiersWithDigitsQuotedNamesAndPlaceholdersStay() {
        assertEquals("SELECT col1, \"x 1\" FROM t2 WHERE a = ? AND b = $1",
                SqlTemplate.of("SELECT col1, \"x 1\" FROM t2 WHERE a = ? AND b = $1"));
    }

    @Test
    void commentsAndWhiteSpaceCollapseAndTrailingSemicolonGoes() {
        assertEquals("UPDATE t SET v = ? WHERE id = ?",
                SqlTemplate.of("  UPDATE t /* why */ SET v =\n\t 'x'  -- note\n WHERE id = 7 ;"));
    }

    @Test
    void statementsDifferingOnlyInLiteralsShareATemplate() {
        assertEquals(SqlTemplate.of("DELETE FROM t WHERE id = 1"), SqlTemplate.of("DELETE FROM t WHERE id = 99999"));
    }
}
