package org.phalanx.bench.cluster;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The local MariaDB server of the development machines (127.0.0.1:3306, user root, empty
 * password); change it with the system properties {@code phalanx.bench.mariadb.host}, {@code .port},
 * {@code .user}, {@code .password}. Databases a scenario creates are named after this process
 * and dropped when it is done.
 */
public final class MariaDb {
    static final String HOST = System.getProperty("phalanx.bench.mariadb.host", "127.0.0.1");
    static final String PORT = System.getProperty("phalanx.bench.mariadb.port", "3306");
    public static final String USER = System.getProperty("phalanx.bench.mariadb.user", "root");
    public static final String PASSWORD = System.getProperty("phalanx.bench.mariadb.password", "");

    private MariaDb() {
    }

    public static String url(String database) {
        return "jdbc:mariadb://" + HOST + ":" + PORT + "/" + database;
    }

    /** Empty when the server answers; otherwise why it cannot be used. */
    public static Optional<String> unavailable() {
        try (Connection c = DriverManager.getConnection(url("") + "?connectTimeout=3000", USER, PASSWORD)) {
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of("MariaDB at " + HOST + ":" + PORT + " is not available (" + e.getMessage() + ")");
        }
    }

    /** Creates (empty) a database of this name, dropping an old one; returns its URL. */
    public static String createDatabase(String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(url(""), USER, PASSWORD); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name);
        }
        return url(name);
    }

    public static void dropDatabase(String name) {
        try (Connection c = DriverManager.getConnection(url(""), USER, PASSWORD); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
        } catch (SQLException e) {
            System.err.println("could not drop MariaDB database " + name + ": " + e.getMessage());
        }
    }
}
