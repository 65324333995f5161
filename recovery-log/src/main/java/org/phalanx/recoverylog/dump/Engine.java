package org.phalanx.recoverylog.dump;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/** The database engines the backupers know, recognised from {@code DatabaseMetaData}. */
public enum Engine {
    SQLITE,
    POSTGRESQL,
    /** MariaDB or MySQL. */
    MARIADB,
    OTHER;

    public static Engine of(Connection connection) throws SQLException {
        return ofProduct(connection.getMetaData().getDatabaseProductName());
    }

    public static Engine ofProduct(String productName) {
        String p = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (p.contains("sqlite")) {
            return SQLITE;
        }
        if (p.contains("postgres")) {
            return POSTGRESQL;
        }
        if (p.contains("mariadb") || p.contains("mysql")) {
            return MARIADB;
        }
        return OTHER;
    }
}
