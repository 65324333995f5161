package org.phalanx.recoverylog.dump;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.phalanx.engine.Engine;

/**
 * Identity counters: the next value an identity column would generate, read from the source and
 * set on the target, so that a restored replica generates the same keys as its source would.
 */
final class Counters {
    private Counters() {
    }

    /** The next value the source would generate, or null if the engine keeps no counter for it. */
    static Long next(Connection c, Engine engine, String table, String column) throws SQLException {
        switch (engine) {
            case SQLITE: {
                try (PreparedStatement s = c.prepareStatement("SELECT seq FROM sqlite_sequence WHERE name = ?")) {
                    s.setString(1, table);
                    try (ResultSet rs = s.executeQuery()) {
                        return rs.next() ? rs.getLong(1) + 1 : null;
                    }
                } catch (SQLException e) {
                    return null; // no AUTOINCREMENT table has been written yet: no sqlite_sequence
                }
            }
            case POSTGRESQL: {
                String sequence = pgSequence(c, table, column);
                if (sequence == null) {
                    return null;
                }
                try (Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT last_value, is_called FROM " + sequence)) {
                    rs.next();
                    return rs.getBoolean(2) ? rs.getLong(1) + 1 : rs.getLong(1);
                }
            }
            case MARIADB: {
                try (PreparedStatement s = c.prepareStatement("SELECT AUTO_INCREMENT FROM information_schema.TABLES"
                        + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
                    s.setString(1, table);
                    try (ResultSet rs = s.executeQuery()) {
                        if (rs.next()) {
                            long v = rs.getLong(1);
                            return rs.wasNull() ? null : v;
                        }
                        return null;
                    }
                }
            }
            default:
                return null;
        }
    }

    static long maxPlusOne(Connection c, Engine engine, String table, String column) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT MAX(" + SqlIdentifiers.quote(engine, column) + ") FROM "
                     + SqlIdentifiers.quote(engine, table))) {
            rs.next();
            long max = rs.getLong(1);
            return rs.wasNull() ? 1 : max + 1;
        }
    }

    static void set(Connection c, Engine engine, String table, String column, long next) throws SQLException {
        switch (engine) {
            case SQLITE -> {
                try (PreparedStatement u = c.prepareStatement("UPDATE sqlite_sequence SET seq = ? WHERE name = ?")) {
                    u.setLong(1, next - 1);
                    u.setString(2, table);
                    if (u.executeUpdate() == 0) {
                        try (PreparedStatement i = c.prepareStatement("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)")) {
                            i.setString(1, table);
                            i.setLong(2, next - 1);
                            i.executeUpdate();
                        }
                    }
                }
            }
            case POSTGRESQL -> {
                String sequence = pgSequence(c, table, column);
                if (sequence != null) {
                    try (PreparedStatement s = c.prepareStatement("SELECT setval(?::regclass, ?, false)")) {
                        s.setString(1, sequence);
                        s.setLong(2, next);
                        s.execute();
                    }
                }
            }
            case MARIADB -> {
                try (Statement s = c.createStatement()) {
                    s.execute("ALTER TABLE " + SqlIdentifiers.quote(engine, table) + " AUTO_INCREMENT = " + next);
                }
            }
            default -> { }
        }
    }

    private static String pgSequence(Connection c, String table, String column) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT pg_get_serial_sequence(?, ?)")) {
            s.setString(1, SqlIdentifiers.quote(Engine.POSTGRESQL, table));
            s.setString(2, column);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}
