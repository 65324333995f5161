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

    private void ran(TemporaryTableNames tables, String sql) {
        tables.ran(analyze(sql), sql, TemporaryTableNames.created(sql));
    }

    private SqlAnalysis analyze(String sql) {
        return analyzer.analyze(sql);
    }
}
