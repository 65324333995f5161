package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.controller.ControllerMain;
import org.phalanx.testkit.db.TestDatabases;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * A large result read with a fetch size streams through the controller in batches from every
 * engine: 400,000 PostgreSQL rows (about 90 MB) through a controller process whose heap is 64 MB,
 * in auto-commit, where pgjdbc would otherwise load every row at once.
 */
class BoundedStreamingIT {
    private static final String DB = "phalanx_streaming";
    private static final int ROWS = 400_000;

    @TempDir
    Path dir;

    @AfterEach
    void drop() {
        TestDatabases.dropPostgres(DB);
    }

    @Test
    void aPostgresqlResultStreamsInFetchSizeBatchesThroughASmallHeap() throws Exception {
        String url = TestDatabases.createPostgres(DB);
        try (Connection direct = TestDatabases.connect(url); Statement s = direct.createStatement()) {
            s.executeUpdate("CREATE TABLE big (id INTEGER PRIMARY KEY, filler CHAR(200) NOT NULL)");
            s.executeUpdate("INSERT INTO big SELECT g, 'x' FROM generate_series(1, " + ROWS + ") g");
        }
        int port = Ports.free();
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends><backend name="pg" url="%s" user="postgres"/></backends>
                </virtualDatabase>
                """.formatted(url));
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port));
        try (ControllerProcess controller = ControllerProcess.java(ControllerMain.class.getName(), dir.resolve("controller.xml"))
                .jvmOptions("-Xmx64m").output(dir.resolve("controller.out")).awaitPorts(port).start();
             Connection c = DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + port + "/vdb?user=app&password=secret");
             Statement s = c.createStatement()) {
            s.setFetchSize(1000);
            long rows = 0;
            long sum = 0;
            try (ResultSet rs = s.executeQuery("SELECT id, filler FROM big ORDER BY id")) {
                while (rs.next()) {
                    rows++;
                    sum += rs.getInt(1);
                }
            }
            assertEquals(ROWS, rows);
            assertEquals((long) ROWS * (ROWS + 1) / 2, sum);
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM big")) { // still serving
                rs.next();
                assertEquals(ROWS, rs.getInt(1));
            }
        }
    }
}
