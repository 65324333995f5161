package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.phalanx.recoverylog.ControllerTables;
import org.phalanx.testkit.db.SqliteFiles;

/** The SQLite leaves of a {@link ControllerTree}, read directly, bypassing every controller. */
final class Leaves {
    private final Path dir;

    Leaves(Path treeDir) {
        this.dir = treeDir;
    }

    Connection leaf(String leaf) throws SQLException {
        return files(leaf).direct(leaf);
    }

    /** The leaf's file, in its sub-controller's folder. */
    SqliteFiles files(String leaf) {
        return new SqliteFiles(dir.resolve(subOf(leaf)), leaf);
    }

    private static String subOf(String leaf) {
        return ControllerTree.LEAVES.entrySet().stream().filter(e -> e.getValue().contains(leaf)).findFirst()
                .orElseThrow().getKey();
    }

    /** The application's tables a leaf holds (SQLite's own and the controllers' records excepted). */
    Set<String> tablesOn(String leaf) throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Connection c = leaf(leaf); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
            while (rs.next()) {
                if (!ControllerTables.isControllerTable(rs.getString(1))) {
                    names.add(rs.getString(1));
                }
            }
        }
        return names;
    }

    long count(String leaf, String table) throws SQLException {
        try (Connection c = leaf(leaf); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The ids in table t of a leaf. */
    Set<Integer> ids(String leaf) throws SQLException {
        Set<Integer> ids = new HashSet<>();
        try (Connection c = leaf(leaf); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM t")) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids;
    }

    /** Asserts that the table is identical (checksum of its rows in {@code orderBy} order) on these leaves. */
    void assertIdentical(String table, String orderBy, List<String> leaves) throws SQLException {
        String expected = checksum(leaves.get(0), table, orderBy);
        for (String leaf : leaves.subList(1, leaves.size())) {
            assertEquals(expected, checksum(leaf, table, orderBy),
                    "table " + table + " differs between leaves " + leaves.get(0) + " and " + leaf);
        }
    }

    private String checksum(String leaf, String table, String orderBy) throws SQLException {
        try (Connection c = leaf(leaf); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY " + orderBy)) {
            return SqliteFiles.checksum(rs);
        }
    }
}
