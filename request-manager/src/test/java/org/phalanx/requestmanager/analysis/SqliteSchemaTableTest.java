package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads of SQLite's schema table without the controller's rows, on a real SQLite file. */
class SqliteSchemaTableTest {
    @TempDir
    Path dir;

    @Test
    void schemaTableReadsLeaveTheControllerTablesOut() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("t.db"));
             Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE phalanx_applied (position INTEGER PRIMARY KEY)");
            s.executeUpdate("CREATE TABLE phalanx_restore_old (x INTEGER)");
            s.executeUpdate("CREATE TABLE phalanx_upper_applied_sub1 (position INTEGER PRIMARY KEY)"); // the top's record
            s.executeUpdate("CREATE TABLE account (id INTEGER PRIMARY KEY)");
            for (String sql : List.of(
                    "SELECT tbl_name FROM \"main\".sqlite_master WHERE type='table'", // Flyway
                    "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name",
                    "select m.name from main . sqlite_master m where m.type='table'",
                    "SELECT sqlite_master.name FROM sqlite_master WHERE sqlite_master.type='table'",
                    "SELECT x.name FROM sqlite_master AS x JOIN sqlite_master y ON x.name = y.name WHERE x.type='table'",
                    "SELECT name FROM sqlite_master /* comment */ WHERE type='table' AND name NOT LIKE 'sqlite_%'")) {
                assertEquals(List.of("account"), column(s, SqliteSchemaTable.withoutControllerTables(sql)), sql);
            }
        }
    }

    @Test
    void literalsCommentsAndOtherStatementsAreLeftAlone() {
        for (String sql : List.of("SELECT 1", "INSERT INTO log VALUES ('from sqlite_master')",
                "SELECT \"sqlite_master\" FROM t", "SELECT 1 -- sqlite_master", "SELECT my_sqlite_master FROM t")) {
            assertSame(sql, SqliteSchemaTable.withoutControllerTables(sql), sql);
        }
    }

    private static List<String> column(Statement s, String sql) throws Exception {
        List<String> values = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
