package org.phalanx.testkit.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The local database servers of the development machines, where tests and benchmarks create
 * databases of their own: PostgreSQL (127.0.0.1:5432, user postgres, trust authentication) and
 * MariaDB (127.0.0.1:3306, user root, empty password). Host, port, user and password can be
 * changed with the system properties {@code phalanx.postgresql.host} ({@code .port}, {@code .user},
 * {@code .password}) and {@code phalanx.mariadb.*}. The JDBC drivers come from the caller.
 */
public enum DatabaseServer {
    POSTGRESQL("PostgreSQL", "postgresql", 5432, "postgres", "postgres", "?connectTimeout=3&loginTimeout=3",
            "SHOW server_version", " WITH (FORCE)"),
    // the empty database name: connected to the server, no database selected
    MARIADB("MariaDB", "mariadb", 3306, "root", "", "?connectTimeout=3000", "SELECT VERSION()", "");

    private final String product;
    private final String scheme;
    private final String host;
    private final String port;
    private final String user;
    private final String password;
    private final String adminDatabase;
    private final String probeOptions;
    private final String versionQuery;
    /** PostgreSQL refuses to drop a database with sessions left by a failed test unless forced. */
    private final String dropOptions;

    DatabaseServer(String product, String scheme, int port, String user, String adminDatabase, String probeOptions,
                   String versionQuery, String dropOptions) {
        String prefix = "phalanx." + scheme + ".";
        this.product = product;
        this.scheme = scheme;
        this.host = System.getProperty(prefix + "host", "127.0.0.1");
        this.port = System.getProperty(prefix + "port", String.valueOf(port));
        this.user = System.getProperty(prefix + "user", user);
        this.password = System.getProperty(prefix + "password", "");
        this.adminDatabase = adminDatabase;
        this.probeOptions = probeOptions;
        this.versionQuery = versionQuery;
        this.dropOptions = dropOptions;
    }

    /** Set to 1 (CI, {@code .ci/run}) to make a missing server a failure rather than a reason to skip. */
    public static final String REQUIRE_SERVERS = "PHALANX_REQUIRE_SERVERS";

    /** Whether a missing server must fail what needs it ({@value #REQUIRE_SERVERS}=1). */
    public static boolean required() {
        return "1".equals(System.getenv(REQUIRE_SERVERS));
    }

    /** A name unique to this process: {@code base_PID}, so that two checkouts testing at once never share a database. */
    public static String perProcess(String base) {
        return base + "_" + ProcessHandle.current().pid();
    }

    public String product() {
        return product;
    }

    public String url(String database) {
        return "jdbc:" + scheme + "://" + host + ":" + port + "/" + database;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** Whether {@code url} points at this server (to pick the user for a URL). */
    public boolean serves(String url) {
        return url.startsWith(url(""));
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(url(database), user, password);
    }

    /** Empty when the server answers; otherwise why it cannot be used. */
    public Optional<String> unavailable() {
        try (Connection c = DriverManager.getConnection(url(adminDatabase) + probeOptions, user, password)) {
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of(product + " at " + host + ":" + port + " is not available (" + e.getMessage() + ")");
        }
    }

    /** Creates an empty database of this name, dropping an old one; returns its URL. */
    public String create(String name) throws SQLException {
        return create(name, "");
    }

    /** The same with options after {@code CREATE DATABASE name} (e.g. a MariaDB character set). */
    public String create(String name, String options) throws SQLException {
        try (Connection c = connect(adminDatabase); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + dropOptions);
            s.execute(("CREATE DATABASE " + name + " " + options).strip());
        }
        return url(name);
    }

    /** Drops the database if it exists; a failure is printed, not thrown (this is cleanup). */
    public void drop(String name) {
        try (Connection c = connect(adminDatabase); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + dropOptions);
        } catch (SQLException e) {
            System.err.println("could not drop " + product + " database " + name + ": " + e.getMessage());
        }
    }

    /** e.g. "PostgreSQL 15.8 (Debian 15.8-0+deb12u1)", or "PostgreSQL not available". */
    public String version() {
        try (Connection c = connect(adminDatabase); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(versionQuery)) {
            return rs.next() ? product + " " + rs.getString(1) : product + " (unknown version)";
        } catch (SQLException e) {
            return product + " not available";
        }
    }
}
