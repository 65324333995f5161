package org.phalanx.recoverylog.dump;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.regex.Pattern;

/**
 * MariaDB tables' collations, carried by a portable dump from a MariaDB source to a MariaDB target:
 * the restored table compares text as its source did. (Onto other engines, and from them, the
 * portable dump keeps its binary collation: keys compare exactly, as on PostgreSQL and SQLite.)
 */
final class Collations {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]+_[A-Za-z0-9_]+");

    private Collations() {
    }

    /** The collation of table {@code table} of the connection's current database, or null. */
    static String ofTable(Connection source, String table) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("SELECT TABLE_COLLATION FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Whether a recorded value is a collation's name (it is written into DDL). */
    static boolean isName(String collation) {
        return NAME.matcher(collation).matches();
    }
}
