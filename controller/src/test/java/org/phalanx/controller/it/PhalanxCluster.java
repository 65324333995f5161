package org.phalanx.controller.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import org.phalanx.controller.Controller;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.testkit.db.SqliteFiles;
import org.phalanx.testkit.jdbc.FaultyDriver;

/**
 * A controller started in-process from real XML files, serving virtual database "vdb" (user
 * "app", password "secret") over SQLite backend files that go through the fault injector.
 */
final class PhalanxCluster implements AutoCloseable {
    final SqliteFiles files;
    /** Replaced by {@link #restart()}. */
    Controller controller;
    final Path dir;
    private final String waitPolicy;

    PhalanxCluster(Path dir, String waitPolicy, String... backends) throws Exception {
        this(dir, waitPolicy, "", backends);
    }

    /**
     * A cluster whose virtual database has a recovery log.
     *
     * @param recoveryLog the {@code <recoveryLog .../>} element, e.g. {@code <recoveryLog dir="log"/>}
     */
    static PhalanxCluster withRecoveryLog(Path dir, String waitPolicy, String recoveryLog, String... backends)
            throws Exception {
        return new PhalanxCluster(dir, waitPolicy, recoveryLog, backends);
    }

    private PhalanxCluster(Path dir, String waitPolicy, String recoveryLog, String[] backends) throws Exception {
        this.dir = dir;
        this.waitPolicy = waitPolicy;
        this.files = new SqliteFiles(dir, backends);
        for (String name : backends) {
            FaultyDriver.fault(name).reset(); // no fault until a test sets one
        }
        writeVirtualDatabase(recoveryLog);
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="0"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """);
        controller = Controller.fromConfig(dir.resolve("controller.xml"));
        controller.start();
    }

    /** (Re)writes vdb.xml; a {@link #restart()} reads it again. */
    void writeVirtualDatabase(String recoveryLog) throws IOException {
        writeVirtualDatabase(dir, files, waitPolicy, recoveryLog, 40);
    }

    /** Writes {@code dir/vdb.xml}: virtual database "vdb" over the files' backends through the fault injector. */
    static void writeVirtualDatabase(Path dir, SqliteFiles files, String waitPolicy, String recoveryLog, int poolSize)
            throws IOException {
        StringBuilder b = new StringBuilder();
        for (String name : files.names()) {
            b.append("    <backend name=\"").append(name).append("\" url=\"")
                    .append(FaultyDriver.url(name, files.url(name)))
                    .append("\" driver=\"").append(FaultyDriver.class.getName()).append("\" poolSize=\"")
                    .append(poolSize).append("\"/>\n");
        }
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users>
                    <user name="app" password="secret"/>
                  </users>
                  <backends>
                %s  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="%s" balancing="least-pending" lockTimeout="20s"/>
                  %s
                </virtualDatabase>
                """.formatted(b, waitPolicy, recoveryLog));
    }

    /** Stops the controller and starts a new one from the same files (fault knobs left as they are). */
    void restart() throws Exception {
        controller.stop();
        controller = Controller.fromConfig(dir.resolve("controller.xml"));
        controller.start();
    }

    /** The hosted virtual database, for operator actions. */
    VirtualDatabase vdb() {
        return controller.virtualDatabase("vdb");
    }

    String url() {
        return "jdbc:phalanx://127.0.0.1:" + controller.port() + "/vdb";
    }

    Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "app");
        p.setProperty("password", "secret");
        return DriverManager.getConnection(url(), p);
    }

    /** Table checksums of every backend file, which must all be equal. */
    void assertIdentical(String table, String orderBy) throws SQLException {
        List<String> names = files.names();
        String expected = files.checksum(names.get(0), table, orderBy);
        for (String n : names.subList(1, names.size())) {
            org.junit.jupiter.api.Assertions.assertEquals(expected, files.checksum(n, table, orderBy),
                    "table " + table + " differs between " + names.get(0) + " and " + n);
        }
    }

    @Override
    public void close() throws IOException {
        controller.stop();
    }
}
