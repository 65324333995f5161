package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.jdbc.FaultyDriver;

/** Done-when 4: read-your-writes under 'first' while one backend's statements are delayed. */
class ReadYourWritesIT {
    @TempDir
    Path dir;

    @Test
    void aClientAlwaysSeesItsOwnWrites() throws Exception {
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "first", "fast", "slow")) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
                FaultyDriver.fault("slow").delayMillis = 80;
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, 0)")) {
                    for (int i = 1; i <= 10; i++) {
                        insert.setInt(1, i);
                        insert.executeUpdate();
                        assertEquals(i, count(s, "SELECT COUNT(*) FROM t"), "auto-commit read after insert " + i);
                    }
                }
                c.setAutoCommit(false);
                for (int i = 1; i <= 10; i++) {
                    s.executeUpdate("UPDATE t SET v = v + 1");
                    assertEquals(10L * i, count(s, "SELECT SUM(v) FROM t"), "read in the transaction after update " + i);
                }
                c.commit();
                c.setAutoCommit(true);
                assertEquals(100, count(s, "SELECT SUM(v) FROM t"), "read after commit");
            }
        }
        PhalanxClusterChecks.identical(dir, List.of("fast", "slow"), "t", "id");
    }

    private static long count(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
