package org.phalanx.bench.cluster;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The local PostgreSQL server of the development machines (127.0.0.1:5432, user postgres,
 * trust authentication); host, port and user can be changed with the system properties
 * {@code phalanx.bench.pg.host}, {@code .port}, {@code .user}, {@code .password}. Each run of the
 * suite creates its own database ({@value #DATABASE}_PID) and drops it at the end, so that runs
 * at the same time (a smoke test during a full run) do not reload each other's tables.
 */
public final class Postgres {
    public static final String DATABASE = "phalanx_bench";
    static final String HOST = System.getProperty("phalanx.bench.pg.host", "127.0.0.1");
    static final String PORT = System.getProperty("phalanx.bench.pg.port", "5432");
    public static final String USER = System.getProperty("phalanx.bench.pg.user", "postgres");
    public static final String PASSWORD = System.getProperty("phalanx.bench.pg.password", "");

    private Postgres() {
    }

    public static String url(String database) {
        return "jdbc:postgresql://" + HOST + ":" + PORT + "/" + database;
    }

    /** Empty when the server answers; otherwise why it cannot be used. */
    public static Optional<String> unavailable() {
        try (Connection c = DriverManager.getConnection(url("postgres") + "?connectTimeout=3&loginTimeout=3", USER,
                PASSWORD)) {
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of("PostgreSQL at " + HOST + ":" + PORT + " is not available (" + e.getMessage() + ")");
        }
    }

    /** This process's database name. */
    public static String databaseName() {
        return DATABASE + "_" + ProcessHandle.current().pid();
    }

    /** Creates this process's benchmark database unless it exists; returns its URL. */
    public static String ensureDatabase() throws SQLException {
        String name = databaseName();
        try (Connection c = DriverManager.getConnection(url("postgres"), USER, PASSWORD);
             Statement s = c.createStatement()) {
            boolean exists;
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
                exists = rs.next();
            }
            if (!exists) {
                s.execute("CREATE DATABASE " + name);
            }
        }
        return url(name);
    }

    /** Drops this process's benchmark database if it exists (its connections are closed by then). */
    public static void dropDatabase() {
        dropDatabase(databaseName());
    }

    /** Creates (empty) a database of this name, dropping an old one; returns its URL. */
    public static String createDatabase(String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(url("postgres"), USER, PASSWORD);
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + name);
        }
        return url(name);
    }

    public static void dropDatabase(String name) {
        try (Connection c = DriverManager.getConnection(url("postgres"), USER, PASSWORD);
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException e) {
            System.err.println("could not drop database " + name + ": " + e.getMessage());
        }
    }

    public static String version() {
        try (Connection c = DriverManager.getConnection(url("postgres"), USER, PASSWORD);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW server_version")) {
            return rs.next() ? "PostgreSQL " + rs.getString(1) : "PostgreSQL (unknown version)";
        } catch (SQLException e) {
            return "PostgreSQL not available";
        }
    }
}
