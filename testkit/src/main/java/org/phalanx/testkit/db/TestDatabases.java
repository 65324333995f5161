package org.phalanx.testkit.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Databases of a test's own on the local {@link DatabaseServer}s: created before, dropped after.
 * The name a test gives is made unique to its JVM ({@link DatabaseServer#perProcess}), so two
 * checkouts running the same test at once never share a database; create and drop take the
 * test's name and agree on the real one ({@link #name}). Without the server the test is skipped
 * with the reason printed, unless {@code PHALANX_REQUIRE_SERVERS=1} (CI, {@code .ci/run}), where it fails.
 */
public final class TestDatabases {
    /** MariaDB options comparing strings as SQLite does: by their bytes, case-sensitive. */
    public static final String MARIADB_BINARY_COLLATION = "CHARACTER SET utf8mb4 COLLATE utf8mb4_bin";

    private TestDatabases() {
    }

    /** The database a test's {@code base} name stands for in this JVM. */
    public static String name(String base) {
        return DatabaseServer.perProcess(base);
    }

    /** Creates this test's database {@code base} on PostgreSQL (user postgres) and returns its URL. */
    public static String createPostgres(String base) {
        return create(DatabaseServer.POSTGRESQL, base, "");
    }

    /** Creates this test's database {@code base} on MariaDB (user root, the server's character set) and returns its URL. */
    public static String createMariaDb(String base) {
        return create(DatabaseServer.MARIADB, base, "");
    }

    /** The same with options after {@code CREATE DATABASE} (e.g. {@link #MARIADB_BINARY_COLLATION}). */
    public static String createMariaDb(String base, String options) {
        return create(DatabaseServer.MARIADB, base, options);
    }

    public static void dropPostgres(String base) {
        DatabaseServer.POSTGRESQL.drop(name(base));
    }

    public static void dropMariaDb(String base) {
        DatabaseServer.MARIADB.drop(name(base));
    }

    /** A connection to any test URL, with the server's user for PostgreSQL and MariaDB URLs. */
    public static Connection connect(String url) throws SQLException {
        for (DatabaseServer server : DatabaseServer.values()) {
            if (server.serves(url)) {
                return DriverManager.getConnection(url, server.user(), server.password());
            }
        }
        return DriverManager.getConnection(url);
    }

    /** Skips the test (or fails it, when servers are required) unless the server answers. */
    public static void assumeAvailable(DatabaseServer server) {
        server.unavailable().ifPresent(TestDatabases::unavailable);
    }

    private static String create(DatabaseServer server, String base, String options) {
        try {
            return server.create(name(base), options);
        } catch (SQLException e) {
            return unavailable("database server at " + server.url("") + " is not available: " + e.getMessage());
        }
    }

    /** Fails or skips the test for want of a database server (or its programs): never returns normally. */
    public static void unavailableServer(String reason) {
        unavailable(reason);
    }

    /** Fails or skips the test: never returns. */
    private static <T> T unavailable(String reason) {
        if (DatabaseServer.required()) {
            return Assertions.fail(reason + " (" + DatabaseServer.REQUIRE_SERVERS + "=1)");
        }
        System.out.println("SKIPPED: " + reason);
        return Assumptions.abort(reason);
    }
}
