package org.phalanx.recoverylog;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The local PostgreSQL and MariaDB servers. A test creates a database of its own and drops it
 * afterwards. Without a server the test is skipped with the reason printed, unless
 * PHALANX_REQUIRE_SERVERS=1, where it fails.
 */
public final class TestDatabases {
    public static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/";
    public static final String MARIADB = "jdbc:mariadb://127.0.0.1:3306/";

    private TestDatabases() {
    }

    /** Creates database {@code name} on PostgreSQL (user postgres, trust) and returns its URL. */
    public static String createPostgres(String name) {
        exec(POSTGRES + "postgres", "postgres", "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)",
                "CREATE DATABASE " + name);
        return POSTGRES + name;
    }

    public static void dropPostgres(String name) {
        execQuietly(POSTGRES + "postgres", "postgres", "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    /** Creates database {@code name} on MariaDB (user root, no password) and returns its URL. */
    public static String createMariaDb(String name) {
        exec(MARIADB, "root", "DROP DATABASE IF EXISTS " + name,
                "CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        return MARIADB + name;
    }

    public static void dropMariaDb(String name) {
        execQuietly(MARIADB, "root", "DROP DATABASE IF EXISTS " + name);
    }

    public static String user(String url) {
        return url.startsWith(POSTGRES) ? "postgres" : url.startsWith(MARIADB) ? "root" : null;
    }

    public static Connection connect(String url) throws SQLException {
        String user = user(url);
        return user == null ? DriverManager.getConnection(url) : DriverManager.getConnection(url, user, "");
    }

    private static void exec(String url, String user, String... statements) {
        try (Connection c = DriverManager.getConnection(url, user, "");
             Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            String reason = "database server at " + url + " is not available: " + e.getMessage();
            if ("1".equals(System.getenv("PHALANX_REQUIRE_SERVERS"))) {
                Assertions.fail(reason + " (PHALANX_REQUIRE_SERVERS=1)");
            }
            System.out.println("SKIPPED: " + reason);
            Assumptions.abort(reason);
        }
    }

    private static void execQuietly(String url, String user, String sql) {
        try (Connection c = DriverManager.getConnection(url, user, "");
             Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            // cleanup only
        }
    }
}
