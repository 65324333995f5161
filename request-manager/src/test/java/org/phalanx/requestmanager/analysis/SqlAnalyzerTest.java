package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class SqlAnalyzerTest {
    private final SqlAnalyzer analyzer = new SqlAnalyzer(100);

    @Test
    void classifiesReadsAndTheirTables() {
        SqlAnalysis a = analyzer.analyze("SELECT a.x FROM Accounts a JOIN \"Orders\" o ON a.id = o.acc WHERE o.id IN (SELECT id FROM items)");
        assertEquals(StatementKind.READ, a.kind());
        assertEquals(Set.of("accounts", "orders", "items"), a.readTables());
        assertTrue(a.parsed());
    }

    @Test
    void selectForUpdateIsAWrite() {
        assertEquals(StatementKind.WRITE, analyzer.analyze("SELECT * FROM t WHERE id = 1 FOR UPDATE").kind());
    }

    @Test
    void writesKnowTheirTargetAndWhatTheyRead() {
        SqlAnalysis a = analyzer.analyze("INSERT INTO archive SELECT * FROM orders WHERE ts < ?");
        assertEquals(StatementKind.WRITE, a.kind());
        assertEquals(Set.of("archive"), a.writtenTables());
        assertEquals(Set.of("orders"), a.readTables());
        assertEquals(Set.of("t"), analyzer.analyze("UPDATE T SET x = x + 1 WHERE id = 3").writtenTables());
        assertEquals(Set.of("t"), analyzer.analyze("DELETE FROM t WHERE id = 3").writtenTables());
    }

    @Test
    void ddlAndDemarcation() {
        assertEquals(StatementKind.DDL, analyzer.analyze("CREATE TABLE t (id INT PRIMARY KEY)").kind());
        assertEquals(StatementKind.DDL, analyzer.analyze("  drop table t").kind());
        assertEquals(StatementKind.BEGIN, analyzer.analyze("BEGIN").kind());
        assertEquals(StatementKind.BEGIN, analyzer.analyze("START TRANSACTION").kind());
        assertEquals(StatementKind.COMMIT, analyzer.analyze("commit").kind());
        assertEquals(StatementKind.ROLLBACK, analyzer.analyze("ROLLBACK").kind());
        assertEquals(StatementKind.SAVEPOINT, analyzer.analyze("ROLLBACK TO SAVEPOINT s1").kind());
        assertEquals(StatementKind.SAVEPOINT, analyzer.analyze("SAVEPOINT s1").kind());
    }

    @Test
    void unreadableStatementsAreConservativeWritesAndCounted() {
        long before = analyzer.unparsedCount();
        SqlAnalysis a = analyzer.analyze("SELEKT * FRUM nowhere");
        assertEquals(StatementKind.WRITE, a.kind());
        assertTrue(a.allTables());
        assertFalse(a.parsed());
        assertEquals(before + 1, analyzer.unparsedCount());
    }

    @Test
    void analysisIsCachedBySqlText() {
        String sql = "SELECT * FROM t WHERE id = ?";
        assertSame(analyzer.analyze(sql), analyzer.analyze(sql));
    }

    @Test
    void detectsMacrosOutsideLiterals() {
        assertTrue(analyzer.analyze("INSERT INTO t VALUES (1, NOW())").hasMacros());
        assertTrue(analyzer.analyze("UPDATE t SET ts = CURRENT_TIMESTAMP").hasMacros());
        assertFalse(analyzer.analyze("INSERT INTO t VALUES (1, 'NOW()')").hasMacros());
        assertFalse(analyzer.analyze("UPDATE t SET now = 1").hasMacros());
    }
}
