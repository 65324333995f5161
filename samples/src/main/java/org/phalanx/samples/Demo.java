package org.phalanx.samples;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo client: writes and reads through the virtual database, then opens each backend
 * file directly (with the SQLite driver, bypassing Phalanx) to show they hold the same rows.
 *
 * <p>Usage: {@code Demo <jdbc:phalanx URL> <backend file>...}
 */
public final class Demo {
    private Demo() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: Demo <jdbc:phalanx://host:port/vdb?user=..&password=..> <backend.db>...");
            System.exit(2);
        }
        String url = args[0];
        List<Path> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            files.add(Path.of(args[i]));
        }
        System.out.println("Connecting to " + url.replaceAll("password=[^&]*", "password=***"));
        try (Connection c = DriverManager.getConnection(url)) {
            System.out.println("Connected to " + c.getMetaData().getDatabaseProductName() + " "
                    + c.getMetaData().getDatabaseProductVersion());
            writeAndRead(c);
        }
        System.out.println();
        System.out.println("Each backend file, read directly with the SQLite driver:");
        String first = null;
        boolean same = true;
        for (Path f : files) {
            String contents = contents(f);
            System.out.printf("  %-14s %s%n", f.getFileName(), summary(contents));
            if (first == null) {
                first = contents;
            } else if (!first.equals(contents)) {
                same = false;
            }
        }
        if (!same) {
            System.out.println("Backends differ!");
            System.exit(1);
        }
        System.out.println("All " + files.size() + " backends hold the same rows: replication works.");
    }

    private static void writeAndRead(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("DROP TABLE IF EXISTS greetings");
            s.executeUpdate("CREATE TABLE greetings (id INTEGER PRIMARY KEY, language TEXT NOT NULL,"
                    + " greeting TEXT NOT NULL, written TIMESTAMP NOT NULL)");
            System.out.println("Created table greetings on every backend");
        }
        String[][] rows = {
            {"English", "Hello"}, {"French", "Bonjour"}, {"German", "Hallo"}, {"Greek", "Γειά σου"},
            {"Japanese", "こんにちは"}, {"Spanish", "Hola"}, {"Swahili", "Habari"},
        };
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO greetings (id, language, greeting, written) VALUES (?, ?, ?, CURRENT_TIMESTAMP)")) {
            for (int i = 0; i < rows.length; i++) {
                ps.setInt(1, i + 1);
                ps.setString(2, rows[i][0]);
                ps.setString(3, rows[i][1]);
                ps.executeUpdate();
            }
        }
        c.commit();
        c.setAutoCommit(true);
        System.out.println("Inserted " + rows.length + " rows in one transaction (CURRENT_TIMESTAMP rewritten once"
                + " by the controller, so every backend stores the same time)");
        try (Statement s = c.createStatement()) {
            int updated = s.executeUpdate("UPDATE greetings SET greeting = greeting || '!' WHERE language <> 'Greek'");
            System.out.println("Updated " + updated + " rows");
            c.setAutoCommit(false);
            s.executeUpdate("DELETE FROM greetings");
            c.rollback();
            c.setAutoCommit(true);
            System.out.println("Deleted every row in a transaction, then rolled it back");
            System.out.println("Reading through the virtual database (reads are balanced across backends):");
            for (int round = 0; round < 3; round++) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*), MIN(greeting) FROM greetings")) {
                    rs.next();
                    System.out.printf("  read %d: %d rows, first greeting %s%n", round + 1, rs.getInt(1), rs.getString(2));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT language, greeting FROM greetings ORDER BY id")) {
                while (rs.next()) {
                    System.out.printf("    %-9s %s%n", rs.getString(1), rs.getString(2));
                }
            }
        }
    }

    private static String contents(Path file) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, language, greeting, written FROM greetings ORDER BY id")) {
            while (rs.next()) {
                sb.append(rs.getInt(1)).append('|').append(rs.getString(2)).append('|').append(rs.getString(3))
                        .append('|').append(rs.getString(4)).append('\n');
            }
        }
        return sb.toString();
    }

    private static String summary(String contents) {
        int rows = contents.isEmpty() ? 0 : contents.split("\n").length;
        return rows + " rows, content hash " + Integer.toHexString(contents.hashCode());
    }
}
