package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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
    void divisionsAndIntervalsAreEngineDependent() {
        assertTrue(analyzer.analyze("SELECT 7 / 2 AS q").engineDependent());
        assertTrue(analyzer.analyze("UPDATE t SET x = x / ? WHERE id = ?").engineDependent());
        assertTrue(analyzer.analyze("SELECT d + INTERVAL '1 day' FROM t").engineDependent());
        assertFalse(analyzer.analyze("SELECT '1/2', \"a/b\" FROM t /* a comment */ WHERE x = ?").engineDependent());
        assertFalse(analyzer.analyze("SELECT * FROM intervals").engineDependent());
    }

    @Test
    void selectForUpdateIsAWrite() {
        assertEquals(StatementKind.WRITE, analyzer.analyze("SELECT * FROM t WHERE id = 1 FOR UPDATE").kind());
    }

    /** Shared locking reads run where writes do, their locks held shared; MariaDB's spelling is read too. */
    @Test
    void shareLockingReadsAreWritesWithSharedLocks() {
        assertFalse(analyzer.analyze("SELECT * FROM t WHERE id = 1 FOR UPDATE").sharedLocks());
        assertFalse(analyzer.analyze("SELECT * FROM t WHERE id = 1 FOR NO KEY UPDATE").sharedLocks());
        for (String sql : List.of("SELECT * FROM t WHERE id = 1 FOR SHARE", "SELECT * FROM t WHERE id = ? FOR KEY SHARE",
                "SELECT * FROM t WHERE id = 1 LOCK IN SHARE MODE", "select * from t where id = 1 lock in share mode;",
                "SELECT * FROM t WHERE id = 1 LOCK IN SHARE MODE NOWAIT")) {
            SqlAnalysis a = analyzer.analyze(sql);
            assertEquals(StatementKind.WRITE, a.kind(), sql);
            assertTrue(a.parsed() && a.sharedLocks(), sql);
            assertEquals(Set.of("t"), a.writtenTables(), sql);
            assertEquals(1, a.footprint().tables().get(0).keys().size(), sql + ": bounded by its key");
        }
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

    /** A DDL locks the tables it names, so it does not wait for transactions on others; else everything. */
    @Test
    void ddlLocksTheTablesItNamesWhereThatIsAllItReaches() {
        assertEquals(Set.of("t"), analyzer.analyze("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(3) NOT NULL)")
                .writtenTables());
        assertEquals(Set.of("t"), analyzer.analyze("CREATE INDEX t_v ON t (v, id)").writtenTables());
        assertEquals(Set.of("t"), analyzer.analyze("ALTER TABLE t ADD COLUMN note VARCHAR(20)").writtenTables());
        assertEquals(Set.of("t"), analyzer.analyze("DROP TABLE t").writtenTables());
        assertEquals(Set.of("t"), analyzer.analyze("DROP TABLE IF EXISTS t CASCADE").writtenTables());
        assertEquals(Set.of("t", "u"), analyzer.analyze("ALTER TABLE t RENAME TO u").writtenTables());
        SqlAnalysis view = analyzer.analyze("CREATE VIEW big AS SELECT * FROM orders WHERE total > 100");
        assertEquals(Set.of("big"), view.writtenTables());
        assertEquals(Set.of("orders"), view.readTables());
        assertFalse(view.allTables());
        // a dialect's clause the parser cannot read (MariaDB: a constraint without a name, as Flyway writes it)
        SqlAnalysis unparsed = analyzer.analyze("CREATE TABLE `db`.`history` (\n  `rank` INT NOT NULL,\n"
                + "  CONSTRAINT  PRIMARY KEY (`rank`)\n) ENGINE=InnoDB");
        assertEquals(Set.of("db.history"), unparsed.writtenTables());
        assertFalse(unparsed.allTables());
        // a foreign key also locks its parent (the engine does); a sequence's DDL only the sequence
        assertEquals(Set.of("c", "p"), analyzer.analyze("CREATE TABLE c (id INT PRIMARY KEY, p INT REFERENCES p (id))")
                .writtenTables());
        assertEquals(Set.of("book", "author"), analyzer.analyze(
                "alter table if exists book add constraint fk1 foreign key (author_id) references author").writtenTables());
        assertEquals(Set.of("book_seq"), analyzer.analyze("create sequence book_seq start with 1 increment by 50")
                .writtenTables());
        assertEquals(Set.of("book_seq"), analyzer.analyze("drop sequence if exists book_seq").writtenTables());
        for (String sql : List.of("DROP TABLE a, b", "TRUNCATE a, b", "DROP SEQUENCE s CASCADE", "CREATE FUNCTION f() ...",
                "CREATE TABLE part PARTITION OF parent FOR VALUES IN (1)")) {
            assertTrue(analyzer.analyze(sql).allTables(), sql);
        }
    }

    /** Taking a sequence's next value advances it: a write of the sequence, so every replica's counter moves. */
    @Test
    void nextValueOfASequenceIsAWriteOfIt() {
        for (String sql : List.of("select nextval('book_seq')", "SELECT NEXTVAL(book_seq)", "select next value for book_seq")) {
            SqlAnalysis a = analyzer.analyze(sql);
            assertEquals(StatementKind.WRITE, a.kind(), sql);
            assertEquals(Set.of("book_seq"), a.writtenTables(), sql);
        }
        assertEquals(StatementKind.READ, analyzer.analyze("SELECT currval('book_seq')").kind());
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

    /** The parser reads a text's first statement only: a write after a read must not be taken for a read. */
    @Test
    void severalStatementsTakeTheirKindFromThemAll() {
        SqlAnalysis readThenWrite = analyzer.analyze("/* c */ SELECT 1; INSERT INTO t VALUES (1)");
        assertEquals(StatementKind.WRITE, readThenWrite.kind());
        assertTrue(readThenWrite.allTables(), "a write the analysis does not bound");
        assertEquals(StatementKind.READ, analyzer.analyze("SELECT 1; SELECT ';' FROM t").kind());
        assertEquals(StatementKind.READ, analyzer.analyze("SELECT 1; -- done").kind());
        assertEquals(StatementKind.READ, analyzer.analyze("SELECT $$a;begin$$ AS x").kind(), "a dollar-quoted text");
        assertEquals(StatementKind.SEVERAL_WITH_CONTROL, analyzer.analyze("BEGIN; INSERT INTO t VALUES (1); COMMIT").kind());
        assertEquals(StatementKind.SEVERAL_WITH_CONTROL, analyzer.analyze("SELECT 1; COMMIT").kind());
        assertEquals(StatementKind.DDL,
                analyzer.analyze("CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE u SET x = 1; END;").kind(),
                "a trigger's body is one statement");
    }
}
