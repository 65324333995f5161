package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.Controller;

/** The RAIDb-2 sample configuration, through the driver, on a copy of the sample folder. */
class PartialReplicationIT {
    private static final Path SAMPLE = Path.of("").toAbsolutePath().getParent().resolve("samples/raidb2-sqlite");

    @TempDir
    Path dir;

    private Controller start() throws Exception {
        Files.copy(SAMPLE.resolve("shop.xml"), dir.resolve("shop.xml"));
        Files.writeString(dir.resolve("controller.xml"),
                Files.readString(SAMPLE.resolve("controller.xml")).replace("port=\"25323\"", "port=\"0\""));
        Controller controller = Controller.fromConfig(dir.resolve("controller.xml"));
        controller.start();
        return controller;
    }

    private Set<String> tablesOn(String file) throws SQLException {
        Set<String> names = new HashSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(file));
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    @Test
    void theSamplePlacementHoldsAndJoinsAreRoutedOrRefused() throws Exception {
        Controller controller = start();
        try (Connection c = DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + controller.port()
                + "/shop?user=shop&password=shop"); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT, price INTEGER)");
            s.executeUpdate("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT)");
            s.executeUpdate("CREATE TABLE order_lines (order_id INTEGER, item_id INTEGER, qty INTEGER)");
            s.executeUpdate("CREATE TABLE log_visits (id INTEGER PRIMARY KEY, page TEXT)");
            s.executeUpdate("INSERT INTO items VALUES (1, 'Dune', 9), (2, 'Emma', 7)");
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO orders VALUES (10, 'ann')");
            s.executeUpdate("INSERT INTO order_lines VALUES (10, 1, 2), (10, 2, 1)");
            s.executeUpdate("UPDATE items SET price = price + 1 WHERE id = 1");
            c.commit();
            c.setAutoCommit(true);
            s.executeUpdate("INSERT INTO log_visits VALUES (1, '/')");
            try (ResultSet rs = s.executeQuery("SELECT SUM(l.qty * i.price) FROM orders o JOIN order_lines l"
                    + " ON l.order_id = o.id JOIN items i ON i.id = l.item_id WHERE o.customer = 'ann'")) {
                rs.next();
                assertEquals(2 * 10 + 7, rs.getInt(1));
            }
            SQLException refused = assertThrows(SQLException.class,
                    () -> s.executeQuery("SELECT * FROM orders o JOIN log_visits v ON v.id = o.id"));
            assertEquals("0A000", refused.getSQLState());
            assertTrue(refused.getMessage().contains("orders is on db1, db2"), refused.getMessage());
            assertEquals(0, controller.statistics("shop").unparsedStatements());
        } finally {
            controller.stop();
        }
        assertEquals(Set.of("items", "orders", "order_lines"), tablesOn("shop1.db"));
        assertEquals(Set.of("items", "orders", "order_lines"), tablesOn("shop2.db"));
        int logCopies = 0;
        for (String f : List.of("shop1.db", "shop2.db", "shop3.db", "shop4.db")) {
            assertTrue(tablesOn(f).contains("items"), "items everywhere: " + f);
            logCopies += tablesOn(f).contains("log_visits") ? 1 : 0;
        }
        assertEquals(1, logCopies, "a log table on exactly one backend");
    }

    @Test
    void aStaticSchemaContradictingTheBackendIsRefusedAtLoad() throws Exception {
        Files.writeString(dir.resolve("shop.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="shop">
                  <users><user name="shop" password="shop"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:shop1.db">
                      <table name="items"/>
                    </backend>
                  </backends>
                  <requestManager replication="RAIDb-2"/>
                </virtualDatabase>
                """);
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="0"/>
                  <virtualDatabase file="shop.xml"/>
                </controller>
                """);
        Controller controller = Controller.fromConfig(dir.resolve("controller.xml"));
        SQLException e = assertThrows(SQLException.class, controller::start);
        assertTrue(e.getMessage().contains(dir.resolve("shop.xml") + ":6:"), e.getMessage());
        assertTrue(e.getMessage().contains("backend db1 has no table items"), e.getMessage());
        controller.stop();
    }
}
