package org.phalanx.recoverylog.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;

/**
 * A portable dump from MariaDB restored onto MariaDB keeps each table's collation: a replica rebuilt
 * so compared text as its source did (an outside operator's restored replica had the binary collation
 * and answered WHERE v = 'AC-1001' with no row where the others found 'ac-1001').
 */
class MariaDbCollationDumpTest {
    @TempDir
    Path dir;

    @Test
    void aTableRestoredOntoMariaDbKeepsItsSourceCollation() throws Exception {
        try (TestTarget source = TestTarget.create(Engine.MARIADB, dir, "phalanx_coll_src");
             TestTarget target = TestTarget.create(Engine.MARIADB, dir, "phalanx_coll_dst")) {
            Path dump = dir.resolve("dump.zip");
            try (Connection c = source.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(20))"
                        + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci");
                s.execute("INSERT INTO t VALUES (1, 'ac-1001')");
                c.setAutoCommit(false);
                new PortableBackuper().backup(c, dump, "cp", 1, Progress.NONE);
                c.rollback();
            }
            try (Connection c = target.connect()) {
                new PortableBackuper().restore(dump, c, false, Progress.NONE);
                assertEquals("utf8mb4_general_ci", one(c, "SELECT TABLE_COLLATION FROM information_schema.TABLES"
                        + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't'"));
                assertEquals("1", one(c, "SELECT COUNT(*) FROM t WHERE v = 'AC-1001'"), "compares as its source did");
            }
        }
    }

    private static String one(Connection c, String query) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
