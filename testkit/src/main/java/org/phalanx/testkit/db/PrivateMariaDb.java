package org.phalanx.testkit.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.phalanx.testkit.process.Ports;

/**
 * A MariaDB server of a test's own, in a folder of the test's, for faults a shared server must
 * never see: stopping it ({@code SIGSTOP}, a hung server), resuming it, killing it. Built from the
 * machine's {@code mariadb-install-db} and {@code mariadbd}, listening on a free port of
 * 127.0.0.1 with a root login without password. Without those programs the test is skipped (or
 * fails when servers are required, as in CI).
 */
public final class PrivateMariaDb implements AutoCloseable {
    private static final Path SERVER = Path.of("/usr/sbin/mariadbd");
    private static final String INSTALL = "mariadb-install-db";

    private final Path dir;
    private final int port;
    private final Process process;

    private PrivateMariaDb(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    /** Installs an empty server in {@code dir} and starts it; returns once it accepts logins. */
    public static PrivateMariaDb start(Path dir) throws IOException, InterruptedException {
        if (!Files.isExecutable(SERVER)) {
            TestDatabases.unavailableServer("no MariaDB server program at " + SERVER);
        }
        Files.createDirectories(dir);
        Path data = dir.resolve("data");
        boolean root = "root".equals(System.getProperty("user.name"));
        List<String> install = new ArrayList<>(List.of(INSTALL, "--no-defaults", "--datadir=" + data,
                "--auth-root-authentication-method=normal", "--skip-test-db"));
        if (root) {
            install.add("--user=root");
        }
        run(install, dir.resolve("install.log"));
        int port = Ports.free();
        List<String> command = new ArrayList<>(List.of(SERVER.toString(), "--no-defaults", "--datadir=" + data,
                "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + dir.resolve("mysqld.sock"),
                "--pid-file=" + dir.resolve("mysqld.pid"), "--skip-name-resolve", "--innodb-buffer-pool-size=32M",
                "--log-error=" + dir.resolve("error.log")));
        if (root) {
            command.add("--user=root");
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.out").toFile()).start();
        PrivateMariaDb server = new PrivateMariaDb(dir, port, p);
        server.awaitLogins();
        return server;
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            TestDatabases.unavailableServer("cannot run " + command.get(0) + ": " + e.getMessage());
            return;
        }
        if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed: " + Files.readString(log));
        }
    }

    private void awaitLogins() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            try (Connection c = connect("")) {
                return;
            } catch (SQLException e) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    close();
                    throw new IOException("the private MariaDB server did not start: " + e.getMessage() + "\n"
                            + readQuietly(dir.resolve("error.log")));
                }
                Thread.sleep(100);
            }
        }
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(" + file + " unreadable)";
        }
    }

    /** The JDBC URL of a database on this server. */
    public String url(String database) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + database;
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(url(database), "root", "");
    }

    /** Creates a database and returns its URL. */
    public String create(String database) throws SQLException {
        try (Connection c = connect(""); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE DATABASE " + database);
        }
        return url(database);
    }

    /** Stops the server in its tracks (SIGSTOP): connections stay open, nothing is answered. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** Lets a paused server go on (SIGCONT). */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** Resumes the server if paused and kills it; its folder stays for the test's own clean-up. */
    @Override
    public void close() {
        try {
            resume();
        } catch (IOException | InterruptedException e) {
            // killed anyway
        }
        process.destroyForcibly();
        try {
            process.waitFor(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
