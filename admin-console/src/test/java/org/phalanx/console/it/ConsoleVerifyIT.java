package org.phalanx.console.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code verify <vdb> [table ...]}: the report of a replica altered behind the controller's back. */
class ConsoleVerifyIT {
    @TempDir
    Path dir;

    @Test
    void verifyNamesTheRowsAndTheOutvotedReplica() throws Exception {
        try (ConsoleTestCluster cluster = new ConsoleTestCluster(dir, "b1", "b2", "b3")) {
            try (Connection c = cluster.client(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(20))");
                s.executeUpdate("CREATE TABLE other (id INTEGER PRIMARY KEY)");
                for (int i = 1; i <= 30; i++) {
                    s.executeUpdate("INSERT INTO items VALUES (" + i + ", 'item " + i + "')");
                }
            }
            try (Connection b3 = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("b3.db"));
                 Statement s = b3.createStatement()) {
                s.executeUpdate("UPDATE items SET name = 'tampered' WHERE id = 5");
                s.executeUpdate("DELETE FROM items WHERE id = 6");
            }
            ConsoleTestCluster.Run run = cluster.console("verify", "mydb", "items", "--rows-per-second", "1000");
            assertEquals(0, run.status(), run.toString());
            assertTrue(run.out().contains("items: row id=5 CHANGED on b3"), run.out());
            assertTrue(run.out().contains("items: row id=6 MISSING on b3"), run.out());
            assertTrue(run.out().contains("30 rows compared"), run.out());
            assertTrue(run.out().contains("2 differences, outvoted: b3"), run.out());
            assertTrue(!run.out().contains("other"), "only the table named");

            ConsoleTestCluster.Run all = cluster.console("verify", "mydb");
            assertEquals(0, all.status(), all.toString());
            assertTrue(all.out().matches("(?s).*other +b1 b2 b3 +0 +1 +0 +identical.*"), all.out());

            ConsoleTestCluster.Run unknown = cluster.console("verify", "mydb", "nope");
            assertEquals(1, unknown.status(), unknown.toString());
            assertTrue(unknown.err().contains("no table nope"), unknown.toString());
        }
    }
}
