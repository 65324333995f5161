package org.phalanx.requestmanager.write;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

class TemporaryTablesTest {

    @Test
    void temporaryTablesAreRefusedWithAClearError() {
        for (String sql : List.of("CREATE TEMPORARY TABLE t (id INT)", "create temp table t as select 1",
                "/* tool */ CREATE GLOBAL TEMPORARY TABLE t (id INT)", "CREATE LOCAL TEMP TABLE t (id INT)",
                "SELECT * INTO TEMP t FROM s", "  -- x\n create temporary table if not exists t (id int)")) {
            SQLException e = assertThrows(SQLException.class, () -> TemporaryTables.refuse(sql), sql);
            assertEquals("0A000", e.getSQLState(), sql);
        }
    }

    @Test
    void everythingElsePasses() {
        for (String sql : List.of("CREATE TABLE temp (id INT)", "CREATE TABLE temporary_things (id INT)",
                "INSERT INTO t VALUES ('create temporary table')", "SELECT temp FROM t FOR UPDATE",
                "UPDATE t SET v = 1")) {
            assertDoesNotThrow(() -> TemporaryTables.refuse(sql), sql);
        }
    }
}
