package org.phalanx.requestmanager.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;

class TemporaryTableNamesTest {
    private final SqlAnalyzer analyzer = new SqlAnalyzer(100);

    @Test
    void theTableATemporaryCreationNames() {
        assertEquals("t", TemporaryTableNames.created("CREATE TEMPORARY TABLE t (id INT)"));
        assertEquals("t", TemporaryTableNames.created("create temp table T as select 1"));
        assertEquals("t", TemporaryTableNames.created("/* tool */ CREATE GLOBAL TEMPORARY TABLE \"T\" (id INT)"));
        assertEquals("t", TemporaryTableNames.created("  -- x\n create temporary table if not exists pg_temp.t (id int)"));
        assertEquals("t", TemporaryTableNames.created("CREATE TEMP TABLE temp.`t` (id INT)"));
        assertEquals("t", TemporaryTableNames.created("SELECT * INTO TEMP t FROM s"));
        assertEquals("t", TemporaryTableNames.created("SELECT a, b INTO TEMPORARY TABLE t FROM s"));
        assertEquals("t", TemporaryTableNames.created("CREATE TABLE pg_temp.t (id INT)"), "PostgreSQL's temporary schema");
        assertEquals("v", TemporaryTableNames.created("CREATE OR REPLACE TEMP VIEW v AS SELECT * FROM s"));
        for (String sql : List.of("CREATE TABLE temp (id INT)", "CREATE TABLE temporary_things (id INT)",
                "INSERT INTO t VALUES ('create temporary table x')", "SELECT temp FROM t FOR UPDATE")) {
            assertNull(TemporaryTableNames.created(sql), sql);
        }
    }

    @Test
    void statementsOnTheSessionsTemporaryTableNames() {
        TemporaryTableNames tables = new TemporaryTableNames();
        assertFalse(tables.touches(analyze("SELECT * FROM tmp"), "SELECT * FROM tmp"), "none created yet");
        ran(tables, "CREATE TEMPORARY TABLE tmp (id INT)");
        for (String sql : List.of("SELECT * FROM tmp", "SELECT * FROM t JOIN TMP ON t.id = tmp.id", "INSERT INTO tmp VALUES (1)",
                "INSERT INTO tmp SELECT * FROM t", "UPDATE pg_temp.tmp SET id = 2", "DELETE FROM tmp",
                "CREATE INDEX i ON tmp (id)", "ALTER TABLE tmp ADD COLUMN v INT", "TRUNCATE TABLE tmp",
                "DROP TABLE tmp", "DROP TEMPORARY TABLE IF EXISTS tmp")) {
            SqlAnalysis a = analyze(sql);
            assertTrue(tables.touches(a, sql), sql);
            assertTrue(tables.changesOnlyTemporary(a, sql), sql);
        }
        for (String sql : List.of("INSERT INTO t SELECT * FROM tmp", "UPDATE t SET v = (SELECT MAX(id) FROM tmp)",
                "CREATE TABLE copy AS SELECT * FROM tmp")) {
            SqlAnalysis a = analyze(sql);
            assertTrue(tables.touches(a, sql), sql);
            assertFalse(tables.changesOnlyTemporary(a, sql), sql + " changes a regular table");
        }
        for (String sql : List.of("SELECT * FROM t", "INSERT INTO t VALUES (1)", "SELECT * FROM other.tmp",
                "SELECT * FROM tmp2")) {
            assertFalse(tables.touches(analyze(sql), sql), sql);
        }
        ran(tables, "DROP TABLE tmp");
        assertTrue(tables.isEmpty());
        ran(tables, "CREATE TEMPORARY TABLE tmp (id INT)");
        ran(tables, "DROP TEMPORARY TABLE tmp");
        assertTrue(tables.isEmpty(), "MariaDB's DROP TEMPORARY TABLE");
    }

    /** Lists, CASCADE: every temporary table is recognised; temporary and regular ones at once are told apart. */
    @Test
    void dropsOfSeveralTables() {
        TemporaryTableNames tables = new TemporaryTableNames();
        ran(tables, "CREATE TEMP TABLE ta (id INT)");
        ran(tables, "CREATE TEMP TABLE tb (id INT)");
        String both = "DROP TABLE ta, \"TB\" CASCADE";
        for (String sql : List.of(both, "drop table ta, tb")) {
            assertTrue(tables.touches(analyze(sql), sql), sql);
            assertTrue(tables.changesOnlyTemporary(analyze(sql), sql), sql);
        }
        assertFalse(tables.dropsMixed(both));
        String mixed = "DROP TABLE IF EXISTS ta, regular";
        assertFalse(tables.changesOnlyTemporary(analyze(mixed), mixed));
        assertTrue(tables.dropsMixed(mixed));
        ran(tables, both);
        assertTrue(tables.isEmpty(), "both dropped");
        ran(tables, "CREATE TEMP TABLE tc (id INT)");
        ran(tables, "DROP TABLE IF EXISTS tc CASCADE;");
        assertTrue(tables.isEmpty(), "CASCADE");
    }

    /** PostgreSQL and SQLite roll back a transaction's DDL, temporary tables too; ON COMMIT DROP goes at commit. */
    @Test
    void whatATransactionDidToTheNamesIsUndoneWithIt() {
        TemporaryTableNames tables = new TemporaryTableNames();
        tables.ran(analyze("CREATE TEMP TABLE kept (id INT)"), "CREATE TEMP TABLE kept (id INT)",
                "kept", false);
        inTransaction(tables, "CREATE TEMP TABLE made (id INT)");
        inTransaction(tables, "DROP TABLE kept");
        tables.transactionEnded(false, true);
        assertTrue(touchesTable(tables, "kept"), "its drop was rolled back");
        assertFalse(touchesTable(tables, "made"), "its creation was rolled back");

        inTransaction(tables, "CREATE TEMP TABLE made (id INT)");
        tables.transactionEnded(false, false);
        assertTrue(touchesTable(tables, "made"), "MariaDB's temporary tables outlive a rollback");

        inTransaction(tables, "CREATE TEMP TABLE staging (id INT) ON COMMIT DROP");
        assertTrue(touchesTable(tables, "staging"));
        tables.transactionEnded(true, true);
        assertFalse(touchesTable(tables, "staging"), "dropped at commit");
        ran(tables, "CREATE TEMP TABLE x (id INT) ON COMMIT DROP");
        assertFalse(touchesTable(tables, "x"), "in auto-commit mode gone with its statement");
    }

    private void inTransaction(TemporaryTableNames tables, String sql) {
        tables.ran(analyze(sql), sql, TemporaryTableNames.created(sql), true);
    }

    private boolean touchesTable(TemporaryTableNames tables, String table) {
        String sql = "SELECT * FROM " + table;
        return tables.touches(analyze(sql), sql);
    }

    /** A temporary sequence would live on whichever pooled connection created it: refused, with a reason. */
    @Test
    void otherTemporaryObjectsAreRefused() {
        for (String sql : List.of("CREATE TEMP SEQUENCE s", "create temporary sequence if not exists s",
                "CREATE SEQUENCE pg_temp.s")) {
            String why = TemporaryTableNames.unsupported(sql);
            assertTrue(why != null && why.contains("temporary sequence"), sql);
        }
        for (String sql : List.of("CREATE TEMP TABLE t (id INT)", "CREATE TEMP VIEW v AS SELECT 1", "CREATE SEQUENCE s",
                "CREATE TABLE temp (id INT)", "SELECT * FROM temp_things")) {
            assertNull(TemporaryTableNames.unsupported(sql), sql);
        }
    }

    private void ran(TemporaryTableNames tables, String sql) {
        tables.ran(analyze(sql), sql, TemporaryTableNames.created(sql), false);
    }

    private SqlAnalysis analyze(String sql) {
        return analyzer.analyze(sql);
    }
}
