package org.phalanx.console.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Launcher;
import org.phalanx.testkit.process.Ports;

/**
 * A controller process hosting virtual database "mydb" (user app/pw) over SQLite files with a
 * file recovery log, managed by admin "admin"/"s3cret" on its own JMX port; and the console run
 * as a user runs it, {@code bin/phalanx console ...}.
 */
final class ConsoleTestCluster implements AutoCloseable {
    static final String ADMIN = "admin";
    static final String PASSWORD = "s3cret";

    final Path dir;
    final int clientPort;
    final int jmxPort;
    private ControllerProcess controller;

    ConsoleTestCluster(Path dir, String... backends) throws Exception {
        this(dir, "", backends);
    }

    /** @param jmxExtra more of the {@code <jmx>} element after the admin (e.g. {@code <tls .../>}) */
    static ConsoleTestCluster withJmx(Path dir, String jmxExtra, String... backends) throws Exception {
        return new ConsoleTestCluster(dir, jmxExtra, backends);
    }

    private ConsoleTestCluster(Path dir, String jmxExtra, String[] backends) throws Exception {
        this.dir = dir;
        this.clientPort = Ports.free();
        this.jmxPort = Ports.free();
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <jmx address="127.0.0.1" port="%d">
                    <admin user="%s" password="%s"/>
                    %s
                  </jmx>
                  <virtualDatabase file="mydb.xml"/>
                </controller>
                """.formatted(clientPort, jmxPort, ADMIN, PASSWORD, jmxExtra));
        writeVirtualDatabase(backends);
        start();
    }

    /** (Re)writes mydb.xml with these backends; a restart reads it again. */
    void writeVirtualDatabase(String... backends) throws IOException {
        StringBuilder b = new StringBuilder();
        for (String name : backends) {
            b.append("    <backend name=\"").append(name).append("\" url=\"jdbc:sqlite:").append(name)
                    .append(".db\" poolSize=\"20\"/>\n");
        }
        Files.writeString(dir.resolve("mydb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="mydb">
                  <users><user name="app" password="pw"/></users>
                  <backends>
                %s  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="all" lockTimeout="20s"/>
                  <recoveryLog dir="log" dumpDir="dumps"/>
                </virtualDatabase>
                """.formatted(b));
    }

    void start() throws Exception {
        controller = ControllerProcess.launch(dir.resolve("controller.xml"), dir.resolve("controller.out"), clientPort,
                jmxPort);
    }

    void restart() throws Exception {
        controller.close();
        start();
    }

    /** Waits for the controller process to end by itself (shutdown over JMX); its exit status. */
    int awaitExit() throws Exception {
        return controller.awaitExit();
    }

    String jmx() {
        return "127.0.0.1:" + jmxPort;
    }

    Connection client() throws SQLException {
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + clientPort + "/mydb?user=app&password=pw");
    }

    /** A hash of a table's rows on one backend file, read directly. */
    String checksum(String backend, String table) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(backend + ".db"));
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    md.update(String.valueOf(rs.getObject(i)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    md.update((byte) 0);
                }
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    long count(String backend, String table) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(backend + ".db"));
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** What a one-shot console run printed and its exit status. */
    record Run(int status, String out, String err) {
        List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\n"));
        }

        @Override
        public String toString() {
            return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** {@code bin/phalanx console --jmx ... --user admin <args>} with the password in the environment. */
    Run console(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Launcher.SCRIPT.toString(), "console", "--jmx", jmx(),
                "--user", ADMIN));
        command.addAll(List.of(args));
        return run(command, Map.of("PHALANX_JMX_PASSWORD", PASSWORD));
    }

    /** The interactive shell ({@code bin/phalanx console} with no command) reading {@code lines} from a pipe. */
    Run shell(String lines) throws Exception {
        Path in = Files.createTempFile("console", ".in");
        try {
            Files.writeString(in, lines);
            return run(List.of(Launcher.SCRIPT.toString(), "console", "--jmx", jmx(), "--user", ADMIN),
                    Map.of("PHALANX_JMX_PASSWORD", PASSWORD), in.toFile());
        } finally {
            Files.deleteIfExists(in);
        }
    }

    static Run run(List<String> command, Map<String, String> env) throws Exception {
        return run(command, env, new java.io.File("/dev/null"));
    }

    private static Run run(List<String> command, Map<String, String> env, java.io.File input) throws Exception {
        Path out = Files.createTempFile("console", ".out");
        Path err = Files.createTempFile("console", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(input));
            pb.environment().remove("PHALANX_JMX_PASSWORD");
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(3, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("the console did not finish: " + command);
            }
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Override
    public void close() throws IOException {
        if (controller != null) {
            controller.close();
        }
    }
}
