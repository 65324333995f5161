package org.phalanx.testkit.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteFilesTest {
    @TempDir
    Path dir;

    @Test
    void equalTablesHaveEqualChecksums() throws Exception {
        SqliteFiles files = new SqliteFiles(dir, "a", "b");
        for (String name : files.names()) {
            try (Connection c = files.direct(name); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
                s.execute("INSERT INTO t VALUES (2, 'two'), (1, NULL)");
            }
        }
        assertEquals(dir.resolve("a.db"), files.file("a"));
        assertEquals(files.checksum("a", "t", "id"), files.checksum("b", "t", "id"));
        assertEquals(2, Integer.parseInt(files.checksum("a", "t", "id").split(":")[0]));
        try (Connection c = files.direct("b"); Statement s = c.createStatement()) {
            s.execute("UPDATE t SET v = 'deux' WHERE id = 2");
        }
        assertNotEquals(files.checksum("a", "t", "id"), files.checksum("b", "t", "id"));
    }
}
