package org.phalanx.testkit.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A test's database on each server: its name is this JVM's, it is there until dropped. */
class TestDatabasesTest {

    @ParameterizedTest
    @EnumSource(DatabaseServer.class)
    void aTestsDatabaseIsUniqueToItsJvmAndDroppedAfterwards(DatabaseServer server) throws Exception {
        String base = "phalanx_testkit_db";
        String name = TestDatabases.name(base);
        assertEquals(base + "_" + ProcessHandle.current().pid(), name);
        String url = server == DatabaseServer.POSTGRESQL ? TestDatabases.createPostgres(base)
                : TestDatabases.createMariaDb(base, TestDatabases.MARIADB_BINARY_COLLATION);
        try {
            assertEquals(server.url(name), url);
            try (Connection c = TestDatabases.connect(url); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
            }
            assertTrue(server.version().startsWith(server.product() + " "), server.version());
        } finally {
            if (server == DatabaseServer.POSTGRESQL) {
                TestDatabases.dropPostgres(base);
            } else {
                TestDatabases.dropMariaDb(base);
            }
        }
        try (Connection c = server.connect(server == DatabaseServer.POSTGRESQL ? "postgres" : "");
             ResultSet rs = c.getMetaData().getCatalogs()) {
            while (rs.next()) {
                assertTrue(!rs.getString(1).equals(name), "dropped: " + name);
            }
        }
    }
}
