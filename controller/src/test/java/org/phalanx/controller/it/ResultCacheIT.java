package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.Controller;
import org.phalanx.testkit.jdbc.FaultyDriver;

/** The result cache configured in XML, through the driver: hits leave the backend alone. */
class ResultCacheIT {
    @TempDir
    Path dir;

    @Test
    void cachedReadsAreServedWithoutTheBackendAndWritesInvalidateThem() throws Exception {
        FaultyDriver.fault("c1").executions.set(0);
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends>
                    <backend name="c1" url="%s" driver="%s"/>
                  </backends>
                  <cache granularity="value" maxEntries="100" maxMemory="1MB">
                    <rule pattern="FROM audit" action="no-caching"/>
                  </cache>
                </virtualDatabase>
                """.formatted(FaultyDriver.url("c1", "jdbc:sqlite:" + dir.resolve("c1.db")), FaultyDriver.class.getName()));
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="0"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """);
        Controller controller = Controller.fromConfig(dir.resolve("controller.xml"));
        controller.start();
        try (Connection c = DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + controller.port()
                + "/vdb?user=app&password=secret"); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE items (id INTEGER PRIMARY KEY, title VARCHAR(20), price DECIMAL(6,2), added DATE)");
            s.executeUpdate("INSERT INTO items VALUES (7, 'Dune', 9.5, '2024-01-02'), (8, 'Emma', 7.25, NULL)");
            try (PreparedStatement ps = c.prepareStatement("SELECT title, price, added FROM items WHERE id = ?")) {
                ps.setInt(1, 8);
                read(ps, "Emma");
                long executions = FaultyDriver.fault("c1").executions.get();
                for (int i = 0; i < 5; i++) {
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals("Emma", rs.getString(1));
                        assertEquals(0, new java.math.BigDecimal("7.25").compareTo(rs.getBigDecimal(2)));
                        rs.getDate(3);
                        assertTrue(rs.wasNull(), "NULLs survive the cache");
                        ResultSetMetaData md = rs.getMetaData();
                        assertEquals("title", md.getColumnLabel(1));
                        assertEquals(Types.DATE, md.getColumnType(3));
                    }
                }
                assertEquals(executions, FaultyDriver.fault("c1").executions.get(), "hits never reach the backend");
                s.executeUpdate("UPDATE items SET title = 'Dune II' WHERE id = 7");
                long afterUpdate = FaultyDriver.fault("c1").executions.get();
                read(ps, "Emma");
                assertEquals(afterUpdate, FaultyDriver.fault("c1").executions.get(), "value granularity: id 7 is not id 8");
                s.executeUpdate("UPDATE items SET title = 'Emma!' WHERE id = 8");
                read(ps, "Emma!");
            }
            assertTrue(controller.cacheStatistics("vdb").hits() >= 6, controller.cacheStatistics("vdb").toString());
        } finally {
            controller.stop();
        }
    }

    private static void read(PreparedStatement ps, String title) throws Exception {
        try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
            assertEquals(title, rs.getString(1));
        }
    }
}
