package org.phalanx.samples;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The demo client of the controller tree (samples/tree-sqlite): works through the top
 * controller's virtual database, then opens every leaf file directly (with the SQLite driver,
 * bypassing every controller) to show each holds the tables its placement says, and that the
 * two leaves of each sub-controller are identical.
 *
 * <p>Usage: {@code TreeDemo <jdbc:phalanx URL of the top> <sample folder>}; the leaves are the
 * {@code *.db} files in the folder's {@code sub*} subfolders. Run it after the controllers have
 * stopped if the leaves must be final (under 'first' a sub-controller's second leaf catches up
 * asynchronously): {@code TreeDemo --check <sample folder>} does the leaf part alone.
 */
public final class TreeDemo {
    /** Where the top's placement rules put each table (sample/tree-sqlite/top/shop.xml). */
    private static final Map<String, Set<String>> PLACEMENT = Map.of(
            "items", Set.of("sub1", "sub2", "sub3"),
            "orders", Set.of("sub1", "sub2"),
            "order_lines", Set.of("sub1", "sub2"),
            "log_visits", Set.of("sub3"));

    private TreeDemo() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: TreeDemo <jdbc:phalanx://host:port/vdb?user=..&password=..> <sample folder>");
            System.err.println("       TreeDemo --check <sample folder>");
            System.exit(2);
        }
        if (!args[0].equals("--check")) {
            work(args[0]);
            return;
        }
        System.exit(checkLeaves(Path.of(args[1])) ? 0 : 1);
    }

    private static void work(String url) throws SQLException {
        System.out.println("Connecting to the top controller: " + url.replaceAll("password=[^&]*", "password=***"));
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            System.out.println("Connected; the virtual database speaks " + c.getMetaData().getDatabaseProductName()
                    + " (the SQL of the leaves, through two levels of controllers)");
            for (String t : List.of("log_visits", "order_lines", "orders", "items")) {
                s.executeUpdate("DROP TABLE IF EXISTS " + t);
            }
            s.executeUpdate("CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL, price INTEGER NOT NULL)");
            s.executeUpdate("CREATE TABLE orders (id INTEGER PRIMARY KEY AUTOINCREMENT, customer TEXT NOT NULL)");
            s.executeUpdate("CREATE TABLE order_lines (order_id INTEGER, item_id INTEGER, qty INTEGER)");
            s.executeUpdate("CREATE TABLE log_visits (id INTEGER PRIMARY KEY, page TEXT, at TIMESTAMP)");
            System.out.println("Created items (every sub-controller), orders and order_lines (sub1, sub2),"
                    + " log_visits (sub3)");
            s.executeUpdate("INSERT INTO items VALUES (1, 'Dune', 9), (2, 'Emma', 7), (3, 'Ulysses', 12)");
            c.setAutoCommit(false);
            long orderId;
            try (PreparedStatement order = c.prepareStatement("INSERT INTO orders (customer) VALUES (?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                order.setString(1, "ann");
                order.executeUpdate();
                try (ResultSet keys = order.getGeneratedKeys()) {
                    keys.next();
                    orderId = keys.getLong(1);
                }
            }
            try (PreparedStatement line = c.prepareStatement("INSERT INTO order_lines VALUES (?, ?, ?)")) {
                for (int[] l : new int[][] {{1, 2}, {3, 1}}) {
                    line.setLong(1, orderId);
                    line.setInt(2, l[0]);
                    line.setInt(3, l[1]);
                    line.addBatch();
                }
                line.executeBatch();
            }
            try (ResultSet rs = s.executeQuery("SELECT SUM(l.qty * i.price) FROM order_lines l JOIN items i"
                    + " ON i.id = l.item_id WHERE l.order_id = " + orderId)) {
                rs.next();
                System.out.println("Order " + orderId + " (generated key) in one transaction; its total, read"
                        + " inside it: " + rs.getInt(1));
            }
            c.commit();
            c.setAutoCommit(true);
            s.executeUpdate("INSERT INTO log_visits VALUES (1, '/checkout', CURRENT_TIMESTAMP)");
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM log_visits")) {
                rs.next();
                System.out.println("Logged " + rs.getInt(1) + " visit on sub3 and read it back at once"
                        + " (read-your-writes through the tree)");
            }
        }
    }

    /** Each leaf holds the tables its sub-controller should, and both leaves of a sub-controller are identical. */
    static boolean checkLeaves(Path folder) throws Exception {
        System.out.println("Each leaf file, read directly with the SQLite driver:");
        boolean ok = true;
        List<Path> subs;
        try (Stream<Path> list = Files.list(folder)) {
            subs = list.filter(p -> p.getFileName().toString().startsWith("sub")).sorted().toList();
        }
        for (Path sub : subs) {
            String name = sub.getFileName().toString();
            Set<String> expected = new TreeSet<>();
            PLACEMENT.forEach((table, where) -> {
                if (where.contains(name)) {
                    expected.add(table);
                }
            });
            List<Map<String, String>> replicas = new ArrayList<>();
            List<Path> leaves;
            try (Stream<Path> list = Files.list(sub)) {
                leaves = list.filter(p -> p.toString().endsWith(".db")).sorted().toList();
            }
            for (Path leaf : leaves) {
                Map<String, String> tables = tables(leaf);
                replicas.add(tables);
                System.out.printf("  %-5s %-10s %s%n", name, leaf.getFileName(), tables.keySet());
                if (!tables.keySet().equals(expected)) {
                    System.out.println("    expected the tables " + expected);
                    ok = false;
                }
            }
            if (replicas.stream().distinct().count() > 1) {
                System.out.println("    the leaves of " + name + " differ!");
                ok = false;
            }
        }
        System.out.println(ok ? "Every leaf holds the tables its placement says, and the leaves of each"
                + " sub-controller are identical." : "The leaves are not as the placement says!");
        return ok;
    }

    /**
     * Table name to its rows (as text, in rowid order), the application's tables only: a leaf also
     * holds the controllers' bookkeeping ({@code phalanx_...}, e.g. the top's record of the log
     * positions each sub applied), which the placement does not name.
     */
    private static Map<String, String> tables(Path leaf) throws SQLException {
        Map<String, String> tables = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + leaf.toAbsolutePath());
             Statement s = c.createStatement()) {
            List<String> names = new ArrayList<>();
            try (ResultSet rs = s.executeQuery(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                            + " AND name NOT LIKE 'phalanx\\_%' ESCAPE '\\'")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            for (String t : names) {
                StringBuilder rows = new StringBuilder();
                try (ResultSet rs = s.executeQuery("SELECT * FROM " + t + " ORDER BY rowid")) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int i = 1; i <= n; i++) {
                            rows.append(rs.getString(i)).append('|');
                        }
                        rows.append('\n');
                    }
                }
                tables.put(t, rows.toString());
            }
        }
        return tables;
    }
}
