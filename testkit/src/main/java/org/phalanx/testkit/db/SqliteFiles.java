package org.phalanx.testkit.db;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Named SQLite database files in a folder (a test's temporary one): {@code NAME.db}. Tests read
 * them directly, bypassing Phalanx, to check what each backend really holds.
 */
public class SqliteFiles {
    private final Path dir;
    private final List<String> names = new ArrayList<>();

    public SqliteFiles(Path dir, String... names) {
        this.dir = dir;
        this.names.addAll(List.of(names));
    }

    public Path dir() {
        return dir;
    }

    public List<String> names() {
        return names;
    }

    public Path file(String name) {
        return dir.resolve(name + ".db");
    }

    public String url(String name) {
        return "jdbc:sqlite:" + file(name);
    }

    /** A direct connection to one file. */
    public Connection direct(String name) throws SQLException {
        return DriverManager.getConnection(url(name));
    }

    /** A checksum of a table's rows in the given order, read directly from the file. */
    public String checksum(String name, String table, String orderBy) throws SQLException {
        try (Connection c = direct(name); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY " + orderBy)) {
            return checksum(rs);
        }
    }

    /** The row count and a SHA-256 of every value's text, in the result's order: equal results, equal checksums. */
    public static String checksum(ResultSet rs) throws SQLException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            ResultSetMetaData meta = rs.getMetaData();
            long rows = 0;
            while (rs.next()) {
                rows++;
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    md.update(String.valueOf(rs.getString(i)).getBytes(StandardCharsets.UTF_8));
                    md.update((byte) 0);
                }
                md.update((byte) '\n');
            }
            return rows + ":" + HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
